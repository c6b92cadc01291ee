import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { PublicationView } from "../../../../common/publication.js";
import { json, mockServer, renderRoutes, student } from "../../../test/render.js";
import { PublicationSection } from "./PublicationSection.js";

afterEach(() => vi.unstubAllGlobals());

const empty: PublicationView = {
  submissionId: 7,
  state: "not_final",
  final: false,
  title: "Rainfall and Maize Yields",
  abstract: "How rainfall shapes maize yields.",
  keywords: [],
  language: null,
  degree: null,
  department: null,
  programme: "MPhil Economics",
  supervisors: [],
  examinationDate: null,
  awardDate: null,
  confirmedAt: null,
  licence: null,
  embargo: null,
  filesPublic: false,
  publishedAt: null,
  withdrawn: null,
  handle: null,
  locked: false,
  missing: ["Keywords"],
  publicPath: null,
};

function renderSection() {
  return renderRoutes(
    [{ path: "/dashboard/status", element: <PublicationSection indexNumber="PG1234567" /> }],
    { path: "/dashboard/status", me: student },
  );
}

describe("the student's Publication section", () => {
  it("sends the metadata, shows a refused ORCID iD beside its field, and says when it is saved", async () => {
    let answers = 0;
    const server = mockServer((call) => {
      if (call.url === "/licence") {
        return json(200, {
          data: {
            version: 2,
            text: "I grant the university...",
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        });
      }
      if (call.method === "PUT" && call.url === "/submissions/PG1234567/publication") {
        answers += 1;
        if (answers === 1) {
          return json(400, {
            success: false,
            code: "validation",
            message: "supervisors.0.orcid: is not a valid ORCID iD (its check digit is wrong)",
            fields: [
              {
                field: "supervisors.0.orcid",
                message: "is not a valid ORCID iD (its check digit is wrong)",
              },
            ],
          });
        }
        return json(200, {
          data: {
            ...empty,
            keywords: ["maize", "rainfall"],
            language: "eng",
            supervisors: [{ name: "Prof. Kofi Mensah", orcid: "0000-0002-1825-0097" }],
          },
        });
      }
      return json(200, { data: empty });
    });
    renderSection();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Keywords"), "maize, rainfall");
    await user.selectOptions(screen.getByLabelText("Language of the thesis"), "eng");
    await user.type(screen.getByLabelText("Supervisor 1: name"), "Prof. Kofi Mensah");
    const orcid = screen.getByLabelText("Supervisor 1: ORCID iD (optional)");
    await user.type(orcid, "0000-0002-1825-0098");
    await user.click(screen.getByRole("button", { name: "Save details" }));

    expect(
      await screen.findByText("is not a valid ORCID iD (its check digit is wrong)"),
    ).toBeVisible();
    expect(orcid).toHaveAttribute("aria-invalid", "true");
    const put = server.calls.find((c) => c.method === "PUT");
    expect(put?.body).toEqual({
      keywords: ["maize", "rainfall"],
      language: "eng",
      supervisors: [{ name: "Prof. Kofi Mensah", orcid: "0000-0002-1825-0098" }],
    });

    await user.clear(orcid);
    await user.type(orcid, "0000-0002-1825-0097");
    await user.click(screen.getByRole("button", { name: "Save details" }));
    expect(await screen.findByText("Your details were saved.")).toBeVisible();
    expect(orcid).toHaveAttribute("aria-invalid", "false");
  });

  it("asks for the tick before accepting the licence, then accepts the version shown", async () => {
    const server = mockServer((call) => {
      if (call.url === "/licence") {
        return json(200, {
          data: {
            version: 2,
            text: "I grant the university the right.",
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        });
      }
      if (call.method === "POST") {
        return json(200, {
          data: {
            ...empty,
            licence: { version: 2, acceptedAt: "2026-11-27T09:00:00.000Z", current: true },
          },
        });
      }
      return json(200, { data: empty });
    });
    renderSection();
    const user = userEvent.setup();
    const region = await screen.findByRole("region", { name: "Licence, version 2" });
    expect(region).toHaveTextContent("I grant the university the right.");
    await user.click(screen.getByRole("button", { name: "Accept the licence" }));
    expect(await screen.findByText("Tick the box to say you accept the licence.")).toBeVisible();
    expect(server.calls.filter((c) => c.method === "POST")).toHaveLength(0);

    await user.click(screen.getByLabelText("I have read version 2 of the licence and accept it"));
    await user.click(screen.getByRole("button", { name: "Accept the licence" }));
    expect(await screen.findByText(/You accepted version 2 on/)).toBeVisible();
    expect(server.calls.find((c) => c.method === "POST")?.body).toEqual({ version: 2 });
  });

  it("shows a published thesis's public page and when its file opens, with no forms left", async () => {
    mockServer((call) =>
      call.url === "/licence"
        ? json(200, { data: null })
        : json(200, {
            data: {
              ...empty,
              state: "published",
              final: true,
              confirmedAt: "2026-11-01T09:00:00.000Z",
              publishedAt: "2026-11-01T09:00:00.000Z",
              embargo: {
                choice: "1y",
                reason: null,
                approval: null,
                decisionNote: null,
                until: "2027-07-20",
              },
              publicPath: "/theses/7",
              handle: "https://hdl.handle.net/123/45",
              missing: [],
            },
          }),
    );
    renderSection();
    const section = await screen.findByRole("region", { name: "Publication", busy: false });
    expect(within(section).getByRole("link", { name: "/theses/7" })).toHaveAttribute(
      "href",
      "/theses/7",
    );
    expect(
      within(section).getByRole("link", { name: "https://hdl.handle.net/123/45" }),
    ).toBeVisible();
    expect(section).toHaveTextContent("available from 20 July 2027");
    expect(within(section).queryByRole("button")).toBeNull();
  });
});
