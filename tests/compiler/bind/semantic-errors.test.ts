// Every wrong input gives exactly its expected codes at the expected line:col.
import { expect } from "chai";
import { brief, check, markers } from "./helpers.js";
import { CASES, SCHEMA } from "./semantic-errors.cases.js";

describe("bind: semantic errors at the right place", () => {
  it("the shared schema itself binds with no diagnostics", () => {
    expect(brief(check(SCHEMA).diagnostics)).to.deep.equal([]);
  });
  for (const c of CASES) {
    it(c.name, () => {
      const { text, positions } = markers(SCHEMA + c.text);
      expect(positions.length, "markers").to.equal(c.codes.length);
      const expected = c.codes.map((code, i) => `${code} ${positions[i]}`);
      expect(brief(check(text).diagnostics)).to.deep.equal(expected);
    });
  }
});
