import { describe, expect, it } from "vitest";
import { fieldNameProblem, MAX_FIELDS, MAX_FORM_ROWS } from "~/domain/limits";

describe("fieldNameProblem", () => {
  it.each([
    "email",
    "form_token",
    "items[0].description",
    "items[49].unit_price",
    "items[7].quantity",
    "g-recaptcha-response",
    "",
  ])("accepts %j", (name) => expect(fieldNameProblem(name)).toBeNull());

  it.each(["items[50].description", "items[1000000].description", "items[0001000].unit", "a[99]"])(
    "refuses the row index of %j",
    (name) => expect(fieldNameProblem(name)).toBe("row"),
  );

  it.each([
    "items[x].unit",
    "items[].unit",
    "a..b",
    ".a",
    "a.",
    "items[-1].unit",
    "__proto__.polluted",
    "items[0].constructor",
    "a[0]b",
  ])("refuses the unreadable name %j", (name) => expect(fieldNameProblem(name)).toBe("name"));

  it("leaves room for a whole offer under the field cap", () => {
    expect(MAX_FIELDS).toBeGreaterThan(MAX_FORM_ROWS * 4 + 20);
  });
});
