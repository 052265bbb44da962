import { expect } from "chai";
import { formatDouble, formatFloat, formatSignificant } from "../../../runtime-wasm/values/number-format.js";
import { formatDatetime, parseDatetime, DATETIME_MAX, DATETIME_MIN } from "../../../runtime-wasm/values/datetime.js";
import { RawJson, toJsonText } from "../../../runtime-wasm/values/json-text.js";

const f32 = Math.fround;

describe("values: number text", () => {
  it("DOUBLE keeps at most 16 significant digits, shortest form", () => {
    expect(formatDouble(2 / 3)).to.equal("0.6666666666666666");
    expect(formatDouble(0.1)).to.equal("0.1");
    expect(formatDouble(0.1 + 0.2)).to.equal("0.3");
    expect(formatDouble(3.5)).to.equal("3.5");
    expect(formatDouble(100 / 7)).to.equal("14.28571428571429");
  });
  it("FLOAT keeps at most 7 significant digits", () => {
    expect(formatFloat(f32(2 / 3))).to.equal("0.6666667");
    expect(formatFloat(f32(202.32))).to.equal("202.32");
    expect(formatFloat(f32(0.1))).to.equal("0.1");
    expect(formatFloat(f32(1 / 3))).to.equal("0.3333333");
  });
  it("whole values have no decimal point; negative zero prints 0", () => {
    expect(formatDouble(2)).to.equal("2");
    expect(formatDouble(-15)).to.equal("-15");
    expect(formatFloat(4)).to.equal("4");
    expect(formatDouble(-0)).to.equal("0");
    expect(formatDouble(1234567890123)).to.equal("1234567890123");
  });
  it("switches to exponent form by C's %g rule", () => {
    expect(formatDouble(1e20)).to.equal("1e+20");
    expect(formatDouble(0.0001)).to.equal("0.0001");
    expect(formatDouble(0.00001)).to.equal("1e-05");
    expect(formatFloat(f32(12345678))).to.equal("1.234568e+07");
    expect(formatSignificant(-1.5e-7, 16)).to.equal("-1.5e-07");
  });
  it("the older 5-decimal style rounds to 5 places", () => {
    expect(formatDouble(2 / 3, "fixed5")).to.equal("0.66667");
    expect(formatDouble(14.5 / 2, "fixed5")).to.equal("7.25");
    expect(formatDouble(4 / 2, "fixed5")).to.equal("2");
    expect(formatDouble(100 / 7, "fixed5")).to.equal("14.28571");
  });
  it("non-finite values are written as null", () => {
    expect(formatDouble(NaN)).to.equal("null");
    expect(formatFloat(Infinity)).to.equal("null");
  });
});

describe("values: DATETIME", () => {
  it("parses the five loader forms and epochs", () => {
    const t = Date.UTC(2011, 1, 3, 1, 2, 3) / 1000;
    expect(parseDatetime("2011-02-03 01:02:03")).to.equal(t);
    expect(parseDatetime("2011/02/03 01:02:03")).to.equal(t);
    expect(parseDatetime("2011-02-03T01:02:03.123z")).to.equal(t);
    expect(parseDatetime("2011-2-3 1:2:3")).to.equal(t);
    expect(parseDatetime("2011-02-03")).to.equal(Date.UTC(2011, 1, 3) / 1000);
    expect(parseDatetime("2011/02/03")).to.equal(Date.UTC(2011, 1, 3) / 1000);
    expect(parseDatetime("0")).to.equal(0);
    expect(parseDatetime("1577934245")).to.equal(1577934245);
  });
  it("rejects impossible dates, bad fields and out-of-range values", () => {
    for (const bad of ["2010-13-05", "2004-04-31 00:00:00", "2019-02-29", "2011-02-03 24:00:00",
      "11-02-03", "2011-02-03 01:02", "1500-01-01", "abc", "", "2011-02/03", "2011-02-03 01:02:03+01:00"]) {
      expect(parseDatetime(bad), bad).to.equal(undefined);
    }
    expect(parseDatetime("2020-02-29")).to.equal(Date.UTC(2020, 1, 29) / 1000);
    expect(parseDatetime("1582-10-15")).to.equal(DATETIME_MIN);
    expect(parseDatetime("9999-12-31 23:59:59")).to.equal(DATETIME_MAX);
  });
  it("formats as YYYY-MM-DD HH:MM:SS in UTC", () => {
    expect(formatDatetime(0)).to.equal("1970-01-01 00:00:00");
    expect(formatDatetime(1577934245)).to.equal("2020-01-02 03:04:05");
    expect(formatDatetime(DATETIME_MIN)).to.equal("1582-10-15 00:00:00");
  });
});

describe("values: JSON text", () => {
  it("writes 64-bit integers exactly and raw fragments verbatim", () => {
    const text = toJsonText({ m: 9223372036854775807n, u: 18446744073709551615n, f: new RawJson("0.6666667"), s: "a\"b", l: [1, true, null] });
    expect(text).to.equal('{"m":9223372036854775807,"u":18446744073709551615,"f":0.6666667,"s":"a\\"b","l":[1,true,null]}');
  });
  it("skips undefined object members and writes non-finite numbers as null", () => {
    expect(toJsonText({ a: undefined, b: NaN })).to.equal('{"b":null}');
  });
});
