import { describe, expect, it } from "vitest";
import { html, jsonBlock } from "./html.js";

describe("html", () => {
  it("escapes interpolated text and attributes, not fragments built by html", () => {
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td title="${name}">${name}</td>`;
    expect(row.text).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td>',
    );
    expect(
      html`<tr>
        ${row}
      </tr>`.text,
    ).toBe(`<tr>${row.text}</tr>`);
  });

  it("joins lists and drops empty values", () => {
    expect(
      html`<ul>
        ${["a<", "b"].map((x) => html`<li>${x}</li>`)}${undefined}${false}${null}${0}
      </ul>`.text,
    ).toBe("<ul><li>a&lt;</li><li>b</li>0</ul>");
  });

  it("keeps a JSON block from closing its script element", () => {
    expect(jsonBlock({ a: "</script><b>" }).text).toBe('{"a":"\\u003c/script>\\u003cb>"}');
  });
});
