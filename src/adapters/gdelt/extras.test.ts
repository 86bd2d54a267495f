import { describe, expect, it } from "vitest";
import { parseExtras } from "./extras.js";

describe("parseExtras", () => {
  it("reads concatenated tags with no root (real 2023 row 20230702153000-84)", () => {
    const xml =
      "<PAGE_LINKS>https://en.wikipedia.org/wiki/Yocto_Project;https://www.yoctoproject.org/</PAGE_LINKS>" +
      "<PAGE_ALTURL_MOBILE>https://m.slashdot.org/story/416240</PAGE_ALTURL_MOBILE>" +
      "<PAGE_TITLE>Linux Foundation's Yocto Project Expands LTS to 4 Years</PAGE_TITLE>";
    const tags = parseExtras(xml);
    expect([...tags.keys()]).toEqual(["PAGE_LINKS", "PAGE_ALTURL_MOBILE", "PAGE_TITLE"]);
    expect(tags.get("PAGE_ALTURL_MOBILE")).toBe("https://m.slashdot.org/story/416240");
    expect(tags.get("PAGE_TITLE")).toBe("Linux Foundation's Yocto Project Expands LTS to 4 Years");
  });

  it("keeps content raw (entities are decoded by the field mapping)", () => {
    expect(parseExtras("<PAGE_TITLE>R&#xF6;yksopp &amp; co</PAGE_TITLE>").get("PAGE_TITLE")).toBe("R&#xF6;yksopp &amp; co");
  });

  it("tolerates `<` inside content, an unclosed tag and junk between tags", () => {
    const tags = parseExtras(
      "junk<PAGE_TITLE>a < b <i>c</PAGE_TITLE> <PAGE_AUTHORS>Jane Doe<PAGE_PRECISEPUBTIMESTAMP>20230702143000</PAGE_PRECISEPUBTIMESTAMP>",
    );
    expect(tags.get("PAGE_TITLE")).toBe("a < b <i>c");
    expect(tags.get("PAGE_AUTHORS")).toBe("Jane Doe");
    expect(tags.get("PAGE_PRECISEPUBTIMESTAMP")).toBe("20230702143000");
  });

  it("keeps the first occurrence, and an empty tag as empty content", () => {
    const tags = parseExtras("<PAGE_TITLE></PAGE_TITLE><PAGE_TITLE>second</PAGE_TITLE>");
    expect(tags.get("PAGE_TITLE")).toBe("");
  });

  it("returns nothing for an empty field", () => {
    expect(parseExtras("").size).toBe(0);
  });
});
