import { describe, expect, it } from "vitest";
import { publicationKey, publicationQuery } from "../../publication/api.js";
import { studentPublicationQuery } from "./publication-record.js";

describe("the status page's prefetch of the publication record", () => {
  it("fills the query the Publication section reads", () => {
    expect(studentPublicationQuery("10234567").queryKey).toEqual(
      publicationKey("student", "10234567"),
    );
    expect(studentPublicationQuery("10234567").queryKey).toEqual(
      publicationQuery("student", "10234567").queryKey,
    );
    expect(studentPublicationQuery("10234567").queryKey).not.toEqual(
      publicationKey("admin", "10234567"),
    );
  });
});
