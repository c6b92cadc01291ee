import { describe, expect, it } from "vitest";
import {
  daysUntil,
  dueInWords,
  fieldMessage,
  formatDay,
  outcomeFormSchema,
  reminderWhy,
} from "./examination.js";

const today = new Date(2025, 2, 10, 15, 30); // 10 March 2025, afternoon, local time

describe("examination words", () => {
  it("counts whole days to the due date in the reader's calendar", () => {
    expect(daysUntil("2025-03-10", today)).toBe(0);
    expect(daysUntil("2025-03-22", today)).toBe(12);
    expect(daysUntil("2025-03-07", today)).toBe(-3);
  });

  it("says how the due date stands in words", () => {
    expect(dueInWords("2025-03-22", today)).toBe("due in 12 days");
    expect(dueInWords("2025-03-11", today)).toBe("due tomorrow");
    expect(dueInWords("2025-03-10", today)).toBe("due today");
    expect(dueInWords("2025-03-09", today)).toBe("1 day overdue");
    expect(dueInWords("2025-03-07", today)).toBe("3 days overdue");
  });

  it("shows a date-only value as the same day whatever the time zone", () => {
    expect(formatDay("2025-03-01")).toBe("1 March 2025");
  });

  it("says why a reminder went out", () => {
    expect(reminderWhy({ manual: true, offsetDays: null })).toBe("sent by hand");
    expect(reminderWhy({ manual: false, offsetDays: -7 })).toBe(
      "scheduled, 7 days before the due date",
    );
    expect(reminderWhy({ manual: false, offsetDays: 0 })).toBe("scheduled, on the due date");
  });

  it("names the field in the schema's short messages", () => {
    expect(fieldMessage("Name", "is required")).toBe("Name is required");
    expect(fieldMessage("Email", "An examiner with this email exists.")).toBe(
      "An examiner with this email exists.",
    );
    expect(fieldMessage("Name", undefined)).toBeUndefined();
  });
});

describe("the outcome form", () => {
  it("asks for a decision", () => {
    const result = outcomeFormSchema.safeParse({ decision: "", corrections: "" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["decision"]);
  });

  it("asks for the corrections when the decision is a corrections one", () => {
    const result = outcomeFormSchema.safeParse({
      decision: "minor_corrections",
      corrections: "   ",
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["corrections"],
        message: "Write the corrections the student must make",
      }),
    ]);
  });

  it("maps the values onto the API's payload, without corrections for a pass", () => {
    expect(outcomeFormSchema.parse({ decision: "pass", corrections: "" })).toEqual({
      decision: "pass",
      corrections: null,
    });
    expect(
      outcomeFormSchema.parse({
        decision: "major_corrections",
        corrections: " Rewrite chapter 3. ",
      }),
    ).toEqual({ decision: "major_corrections", corrections: "Rewrite chapter 3." });
  });
});
