import { describe, expect, it } from "vitest";
import { untranslatedLanguage } from "./title-language.js";

// Headlines of the bundled sample (data/gkg), all from records without
// translation info: what GDELT's English stream labels English.

describe("the language of a record without translation info", () => {
  it("names the language of a headline in another script", () => {
    expect(untranslatedLanguage("Press Trust of India: लंदन में भारतीय मूल की छात्रा की हत्या के आरोपी ने अपना अपराध स्वीकार किया")).toBe(
      "hin",
    );
    expect(untranslatedLanguage("Говорит Москва")).toBe("rus");
  });

  it("names the language of a Latin-script headline only when it is long enough and clearly not English", () => {
    expect(
      untranslatedLanguage("Disabilità, la regione investe su progetti per supportare le persone prive di sostegno familiare"),
    ).toBe("ita");
    expect(untranslatedLanguage("Une Alfa Romeo Giulia avec carrosserie carbone par Alfaholics")).toBe("fra");
  });

  it("keeps English for English headlines a detector alone would misread", () => {
    // Each of these ELD alone takes for another language.
    for (const title of [
      "Bryan Adams",
      "Events Calendar",
      "Police Blotter",
      "WMBR 88.1 FM at MIT",
      "Hotel Barocco | Hotels",
      "Eric Omondi honours Jacque Maribe's request",
      "FC Barcelona Could Propose De Jong-Bernardo Silva Manchester City swap",
      "Pudukottai - The Hindu",
    ])
      expect(untranslatedLanguage(title), title).toBe("eng");
    expect(untranslatedLanguage(null)).toBe("eng");
    expect(untranslatedLanguage("2023 — 1/2")).toBe("eng");
  });
});
