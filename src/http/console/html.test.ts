import { describe, expect, it } from "vitest";
import { html } from "./html.js";

// The markup below is compared to the character: kept as written, not formatted.

describe("html", () => {
  it("escapes interpolated text and attributes, not fragments built by html", () => {
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td title="${name}">${name}</td>`;
    expect(row.text).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td>',
    );
    // prettier-ignore
    const table = html`<tr>${row}</tr>`;
    expect(table.text).toBe(`<tr>${row.text}</tr>`);
  });

  it("joins lists and drops empty values", () => {
    // prettier-ignore
    const list = html`<ul>${["a<", "b"].map((x) => html`<li>${x}</li>`)}${undefined}${false}${null}${0}</ul>`;
    expect(list.text).toBe("<ul><li>a&lt;</li><li>b</li>0</ul>");
  });
});
