import { describe, expect, it } from "vitest";
import { readListQuery, readOpenId, withParams } from "./list-params.js";

describe("list parameters in the address", () => {
  it("reads search, filters, sort and page with the API's defaults", () => {
    const query = readListQuery(new URLSearchParams("q=ama&sgsStage=sent_to_examiners&page=3"));
    expect(query).toMatchObject({
      q: "ama",
      sgsStage: "sent_to_examiners",
      page: 3,
      sort: "name",
      order: "asc",
      pageSize: 25,
    });
  });

  it("drops a value the API would refuse instead of breaking the page", () => {
    const query = readListQuery(new URLSearchParams("q=ama&sgsStage=lost&pageSize=5000"));
    expect(query.q).toBe("ama");
    expect(query.sgsStage).toBeUndefined();
    expect(query.pageSize).toBe(25);
  });

  it("goes back to page 1 when the search or a filter changes, not when a record opens", () => {
    const params = new URLSearchParams("q=ama&page=4");
    expect(withParams(params, { q: "kofi" }).toString()).toBe("q=kofi");
    expect(withParams(params, { open: 7 }).toString()).toBe("q=ama&page=4&open=7");
    expect(withParams(params, { q: "" }).toString()).toBe("");
  });

  it("reads the open submission's id only when it is a positive whole number", () => {
    expect(readOpenId(new URLSearchParams("open=12"))).toBe(12);
    expect(readOpenId(new URLSearchParams("open=abc"))).toBeNull();
    expect(readOpenId(new URLSearchParams(""))).toBeNull();
  });

  it("reads the documents filter and drops a value the API does not know", () => {
    expect(readListQuery(new URLSearchParams("documents=waiting")).documents).toBe("waiting");
    expect(readListQuery(new URLSearchParams("documents=lost")).documents).toBeUndefined();
    expect(
      withParams(new URLSearchParams("documents=waiting&page=3"), {
        documents: "returned",
      }).toString(),
    ).toBe("documents=returned");
  });
});
