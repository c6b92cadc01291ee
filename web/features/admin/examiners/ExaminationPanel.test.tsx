import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { ExaminerRecord, OutcomeInput } from "../../../../common/examiners.js";
import {
  documentsRoute,
  makeSubmission,
  mockApi,
  renderPage,
  type MockRoute,
} from "../test/harness.js";
import { SubmissionDetailsPanel } from "../submissions/components/SubmissionDetailsPanel.js";
import { ExaminationPanel } from "./ExaminationPanel.js";
import {
  examinationRoute,
  makeExamination,
  makeExaminationView,
  makeExaminer,
  putRoute,
  type ExaminationView,
} from "./test/fixtures.js";

// The server is outside the component's control: fetch is stubbed with answers shaped by
// common/examiners.ts. The examination view is kept in memory and changed by the stand-in routes,
// so the panel is seen reading it again after each action.
const submission = makeSubmission({ id: 9, indexNumber: "PG7654321" });
const base = `/api/admin/submissions/${submission.indexNumber}`;

const internalCandidates: ExaminerRecord[] = [
  makeExaminer({ id: 11, name: "Kofi Boateng" }),
  makeExaminer({ id: 12, name: "Abena Boakye", email: "abena@ug.edu.gh", openExaminations: 0 }),
  makeExaminer({ id: 13, name: "Yaw Mensah", email: "yaw@ug.edu.gh", openExaminations: 1 }),
];

function daysFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function setup(initial: ExaminationView, extra: MockRoute[] = []) {
  let view = initial;
  const api = mockApi([
    ...extra,
    examinationRoute(submission.indexNumber, () => view),
    {
      path: "/api/admin/examiners",
      answer: (call) => {
        const q = (call.url.searchParams.get("q") ?? "").toLowerCase();
        const items = internalCandidates.filter((e) => e.name.toLowerCase().includes(q));
        return { body: { items, total: items.length, page: 1, pageSize: 8 } };
      },
    },
    putRoute({
      path: /^\/api\/admin\/submissions\/PG7654321\/examiners\/(internal|external)$/,
      answer: (call) => {
        const role = call.url.pathname.endsWith("internal") ? "internal" : "external";
        const { examinerId } = call.body as { examinerId: number };
        const chosen = internalCandidates.find((e) => e.id === examinerId)!;
        const old = view[role];
        view = {
          ...view,
          [role]: makeExamination(role, {
            id: 600 + examinerId,
            examiner: {
              id: chosen.id,
              name: chosen.name,
              email: chosen.email,
              institution: chosen.institution,
            },
          }),
          replaced: old
            ? [{ ...old, state: "replaced", replacedAt: "2025-03-05T10:00:00.000Z" }]
            : [],
        };
        return { body: { data: view } };
      },
    }),
  ]);
  const rendered = renderPage(
    <ExaminationPanel submissionId={submission.id} indexNumber={submission.indexNumber} />,
    { path: "/admin/all_submissions" },
  );
  return { ...rendered, api, current: () => view, set: (next: ExaminationView) => (view = next) };
}

/** The list item of one role, found by its heading. */
async function roleCard(name: "Internal examiner" | "External examiner") {
  const heading = await screen.findByRole("heading", { level: 4, name });
  return heading.closest("li")!;
}

const sentInternal = () =>
  makeExamination("internal", {
    state: "received",
    sentAt: "2025-03-02T09:00:00.000Z",
    dueOn: daysFromToday(-3),
    linkExpiresAt: "2025-07-01T09:00:00.000Z",
    receivedAt: "2025-03-04T15:00:00.000Z",
    lastOpenedAt: "2025-03-20T08:15:00.000Z",
    reminders: [
      { sentAt: "2025-03-10T08:00:00.000Z", offsetDays: -7, manual: false },
      { sentAt: "2025-03-18T11:00:00.000Z", offsetDays: null, manual: true },
    ],
  });

const reportedExternal = () =>
  makeExamination("external", {
    state: "report_submitted",
    sentAt: "2025-03-02T09:00:00.000Z",
    dueOn: "2025-04-13",
    linkExpiresAt: "2025-07-01T09:00:00.000Z",
    receivedAt: "2025-03-03T10:00:00.000Z",
    lastOpenedAt: "2025-03-25T16:40:00.000Z",
    report: {
      fileName: "owusu-report.pdf",
      sizeBytes: 204_800,
      pageCount: 4,
      hasJavaScript: true,
      hasEmbeddedFiles: false,
      uploadedAt: "2025-03-25T16:45:00.000Z",
      recommendation: "minor_corrections",
      note: "Chapter 4 needs a clearer method section.",
      href: "/api/admin/examinations/502/report",
    },
  });

describe("the examination in the details panel", () => {
  it("sits under the documents in the submission's details", async () => {
    mockApi([
      {
        path: `/api/admin/submissions/${submission.id}`,
        answer: () => ({ body: { data: submission } }),
      },
      {
        path: `/api/admin/submissions/${submission.id}/events`,
        answer: () => ({ body: { items: [] } }),
      },
      documentsRoute(submission),
      examinationRoute(submission.indexNumber, () => makeExaminationView()),
    ]);
    renderPage(<SubmissionDetailsPanel submissionId={submission.id} onClose={() => {}} />, {
      path: "/admin/all_submissions",
    });
    const panel = await screen.findByRole("dialog", { name: "Submission Details" });
    const examination = await within(panel).findByRole("region", { name: "Examination" });
    const documents = within(panel).getByRole("region", { name: "Documents" });
    expect(
      documents.compareDocumentPosition(examination) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(
      await within(examination).findByText("No internal examiner is nominated yet."),
    ).toBeInTheDocument();
  });

  it("with nobody nominated, offers to nominate and keeps Send disabled with the reason beside it", async () => {
    setup(makeExaminationView());
    const internal = await roleCard("Internal examiner");
    expect(within(internal).getByText("Not nominated")).toBeInTheDocument();
    expect(
      within(internal).getByRole("button", { name: "Nominate the internal examiner" }),
    ).toBeEnabled();
    expect(
      within(await roleCard("External examiner")).getByText(
        "No external examiner is nominated yet.",
      ),
    ).toBeInTheDocument();

    const send = screen.getByRole("button", { name: "Send to examiners" });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(
      "Nominate an internal and an external examiner before sending.",
    );
    expect(
      screen.getByText(/The outcome can be released to the student once both/),
    ).toBeInTheDocument();
  });

  it("nominates with the keyboard: search, arrow to a match, Enter", async () => {
    const user = userEvent.setup();
    const { api } = setup(makeExaminationView());
    const internal = await roleCard("Internal examiner");
    await user.click(
      within(internal).getByRole("button", { name: "Nominate the internal examiner" }),
    );

    const search = within(internal).getByRole("combobox", { name: "Find an internal examiner" });
    expect(search).toHaveFocus();
    const listbox = within(internal).getByRole("listbox", { hidden: true });
    await user.type(search, "bo");
    // The matches narrow once the search settles (the first answer lists every examiner).
    await waitFor(() => expect(within(listbox).getAllByRole("option")).toHaveLength(2));
    const options = within(listbox).getAllByRole("option");
    expect(options.map((o) => o.querySelector(".examiner-picker__name")?.textContent)).toEqual([
      "Kofi Boateng",
      "Abena Boakye",
    ]);
    expect(options[0]).toHaveTextContent(
      "University of Ghana · kofi.boateng@ug.edu.gh · 2 open examinations",
    );
    await waitFor(() =>
      expect(api.callsTo("GET", "/api/admin/examiners").at(-1)?.url.searchParams.get("q")).toBe(
        "bo",
      ),
    );
    const query = Object.fromEntries(
      api.callsTo("GET", "/api/admin/examiners").at(-1)!.url.searchParams,
    );
    expect(query).toMatchObject({ kind: "internal", active: "true", q: "bo" });

    await user.keyboard("{ArrowDown}");
    expect(options[0]).toHaveAttribute("aria-selected", "true");
    expect(search).toHaveAttribute("aria-activedescendant", options[0]!.id);
    await user.keyboard("{ArrowDown}");
    expect(options[1]).toHaveAttribute("aria-selected", "true");
    expect(options[0]).toHaveAttribute("aria-selected", "false");
    expect(search).toHaveAttribute("aria-activedescendant", options[1]!.id);
    await user.keyboard("{Enter}");

    expect(
      await screen.findByText("Abena Boakye is nominated as the internal examiner."),
    ).toHaveAttribute("role", "status");
    expect(api.callsTo("PUT", `${base}/examiners/internal`).map((c) => c.body)).toEqual([
      { examinerId: 12 },
    ]);
    expect(within(internal).queryByRole("combobox")).not.toBeInTheDocument();
    expect(await within(internal).findByText("Abena Boakye")).toBeInTheDocument();
    expect(within(internal).getByText("Nominated", { selector: ".chip" })).toBeInTheDocument();
    expect(within(internal).getByRole("heading", { name: "Internal examiner" })).toHaveFocus();
  });

  it("asks before replacing, saying the old link stops working at once", async () => {
    const user = userEvent.setup();
    const { api } = setup(makeExaminationView({ internal: sentInternal() }));
    const internal = await roleCard("Internal examiner");
    await user.click(
      within(internal).getByRole("button", { name: "Replace the internal examiner" }),
    );
    const search = within(internal).getByRole("combobox", { name: "Find an internal examiner" });

    // The examiner in the role is not offered again.
    const options = await within(internal).findAllByRole("option");
    expect(options.map((o) => o.querySelector(".examiner-picker__name")?.textContent)).toEqual([
      "Abena Boakye",
      "Yaw Mensah",
    ]);
    await user.click(search);
    await user.keyboard("{ArrowUp}{Enter}");

    const dialog = screen.getByRole("alertdialog", { name: "Replace Kofi Boateng?" });
    expect(dialog).toHaveTextContent("Kofi Boateng’s link will stop working at once.");
    expect(api.callsTo("PUT", `${base}/examiners/internal`)).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Replace with Yaw Mensah" }));

    expect(
      await screen.findByText(
        "Yaw Mensah replaces Kofi Boateng as the internal examiner. Kofi Boateng’s link no longer works.",
      ),
    ).toBeInTheDocument();
    expect(api.callsTo("PUT", `${base}/examiners/internal`).map((c) => c.body)).toEqual([
      { examinerId: 13 },
    ]);
    const replaced = (await screen.findByText("Replaced examiners (1)")).closest("details")!;
    expect(within(replaced).getByText(/Kofi Boateng \(internal\)/)).toBeInTheDocument();
  });

  it("closes the picker with Escape and leaves the details panel open", async () => {
    const user = userEvent.setup();
    mockApi([
      {
        path: `/api/admin/submissions/${submission.id}`,
        answer: () => ({ body: { data: submission } }),
      },
      {
        path: `/api/admin/submissions/${submission.id}/events`,
        answer: () => ({ body: { items: [] } }),
      },
      documentsRoute(submission),
      examinationRoute(submission.indexNumber, () => makeExaminationView()),
      {
        path: "/api/admin/examiners",
        answer: () => ({ body: { items: internalCandidates, total: 3, page: 1, pageSize: 8 } }),
      },
    ]);
    let closed = 0;
    renderPage(
      <SubmissionDetailsPanel submissionId={submission.id} onClose={() => (closed += 1)} />,
      { path: "/admin/all_submissions" },
    );
    const internal = await roleCard("Internal examiner");
    const nominate = within(internal).getByRole("button", {
      name: "Nominate the internal examiner",
    });
    await user.click(nominate);
    await within(internal).findAllByRole("option");
    await user.keyboard("{Escape}");

    expect(within(internal).queryByRole("combobox")).not.toBeInTheDocument();
    expect(closed).toBe(0);
    expect(within(internal).getByRole("heading", { name: "Internal examiner" })).toHaveFocus();
  });

  it("shows the dates, the reminders and the report, and opens the report in a new tab", async () => {
    setup(makeExaminationView({ internal: sentInternal(), external: reportedExternal() }));
    const internal = await roleCard("Internal examiner");
    expect(within(internal).getByText("Received", { selector: ".chip" })).toBeInTheDocument();
    expect(within(internal).getByText("Kofi Boateng")).toBeInTheDocument();
    expect(
      within(internal).getByRole("link", { name: "kofi.boateng@ug.edu.gh" }),
    ).toBeInTheDocument();
    expect(within(internal).getByText("2 March 2025")).toBeInTheDocument();
    expect(within(internal).getByText("(3 days overdue)")).toBeInTheDocument();
    expect(within(internal).getByText("4 March 2025")).toBeInTheDocument();
    expect(within(internal).getByText(/^20 Mar 2025/)).toBeInTheDocument();
    expect(within(internal).getByLabelText(/^Due date/)).toHaveValue(daysFromToday(-3));
    const reminders = within(internal).getByText("Reminders sent: 2").closest("details")!;
    expect(
      within(reminders).getByText(/scheduled, 7 days before the due date/),
    ).toBeInTheDocument();
    expect(within(reminders).getByText(/sent by hand/)).toBeInTheDocument();
    expect(
      within(internal).getByRole("button", { name: "Revoke the links of the internal examiner" }),
    ).toBeInTheDocument();
    expect(
      within(internal).getByRole("button", { name: "Send a reminder to the internal examiner" }),
    ).toBeInTheDocument();

    const external = await roleCard("External examiner");
    expect(
      within(external).getByText("Report Submitted", { selector: ".chip" }),
    ).toBeInTheDocument();
    expect(within(external).getByText("Minor corrections")).toBeInTheDocument();
    expect(
      within(external).getByText("Chapter 4 needs a clearer method section."),
    ).toBeInTheDocument();
    expect(
      within(within(external).getByRole("list", { name: "Warnings" })).getByText(
        "Contains scripts",
      ),
    ).toBeInTheDocument();
    const open = within(external).getByRole("link", {
      name: "Open report of the external examiner (PDF, opens in a new tab)",
    });
    expect(open).toHaveAttribute("href", "/api/admin/examinations/502/report");
    expect(open).toHaveAttribute("target", "_blank");
    // With the report in, the due date is a fact, not a form, and no reminder is offered.
    expect(within(external).queryByLabelText(/^Due date/)).not.toBeInTheDocument();
    expect(
      within(external).queryByRole("button", { name: /Send a reminder/ }),
    ).not.toBeInTheDocument();
  });

  it("sends to the nominated examiners after confirming", async () => {
    const user = userEvent.setup();
    const nominated = makeExaminationView({
      internal: makeExamination("internal"),
      external: makeExamination("external"),
      canSend: true,
      sendBlockedReason: null,
    });
    const { api, set } = setup(nominated, [
      {
        method: "POST",
        path: `${base}/examination/send`,
        answer: () => {
          const sent = {
            state: "sent" as const,
            sentAt: "2025-03-06T09:00:00.000Z",
            dueOn: "2025-04-17",
          };
          const next = {
            ...nominated,
            internal: { ...nominated.internal!, ...sent },
            external: { ...nominated.external!, ...sent },
            canSend: false,
            sendBlockedReason: "Both examiners have been sent their links.",
          };
          set(next);
          return { body: { data: next } };
        },
      },
    ]);
    await user.click(await screen.findByRole("button", { name: "Send to examiners" }));
    const dialog = screen.getByRole("alertdialog", { name: "Send to examiners?" });
    expect(dialog).toHaveTextContent("Kofi Boateng (internal) and Grace Owusu (external)");
    await user.click(within(dialog).getByRole("button", { name: "Send the links" }));

    expect(
      await screen.findByText(
        "The link has been sent to Kofi Boateng (internal) and Grace Owusu (external). Their due dates are set.",
      ),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", `${base}/examination/send`).map((c) => c.body)).toEqual([{}]);
    expect(
      await screen.findByText("Both examiners have been sent their links."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send to examiners" })).toBeDisabled();
    expect(
      within(await roleCard("Internal examiner")).getByText("Link sent", { selector: ".chip" }),
    ).toBeInTheDocument();
  });

  it("sends one examiner a new link, revokes a link, and changes a due date", async () => {
    const user = userEvent.setup();
    const { api } = setup(makeExaminationView({ internal: sentInternal() }), [
      {
        method: "POST",
        path: `${base}/examination/send`,
        answer: () => ({ body: { data: makeExaminationView({ internal: sentInternal() }) } }),
      },
      { method: "POST", path: "/api/admin/examinations/501/revoke", answer: () => ({ body: {} }) },
      { method: "PATCH", path: "/api/admin/examinations/501", answer: () => ({ body: {} }) },
    ]);
    const internal = await roleCard("Internal examiner");

    await user.click(
      within(internal).getByRole("button", {
        name: "Send the link again to the internal examiner",
      }),
    );
    let dialog = screen.getByRole("alertdialog", { name: "Send the link again to Kofi Boateng?" });
    expect(dialog).toHaveTextContent(/The links they had keep\s+working until they expire/);
    await user.click(within(dialog).getByRole("button", { name: "Send a new link" }));
    expect(await screen.findByText(/A new link has been sent to Kofi Boateng/)).toBeInTheDocument();
    expect(api.callsTo("POST", `${base}/examination/send`).map((c) => c.body)).toEqual([
      { roles: ["internal"] },
    ]);

    await user.click(
      within(internal).getByRole("button", { name: "Revoke the links of the internal examiner" }),
    );
    dialog = screen.getByRole("alertdialog", { name: "Revoke Kofi Boateng’s links?" });
    expect(dialog).toHaveTextContent(/the invitation’s and the\s+reminders’/);
    await user.click(within(dialog).getByRole("button", { name: "Revoke links" }));
    expect(await screen.findByText(/Kofi Boateng’s links no longer work/)).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/examinations/501/revoke")).toHaveLength(1);

    const due = within(internal).getByLabelText(/^Due date/);
    await user.clear(due);
    await user.type(due, "2025-05-30");
    await user.click(within(internal).getByRole("button", { name: "Save the due date" }));
    expect(
      await screen.findByText(
        "The internal examiner’s report is now due on 30 May 2025. The reminders follow the new date.",
      ),
    ).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/admin/examinations/501").map((c) => c.body)).toEqual([
      { dueOn: "2025-05-30" },
    ]);
    // Each action reads the examination again.
    expect(api.callsTo("GET", `${base}/examination`).length).toBeGreaterThanOrEqual(4);
  });

  it("asks again, naming the stages it skips, when sending would skip earlier stages", async () => {
    const user = userEvent.setup();
    const nominated = makeExaminationView({
      internal: makeExamination("internal"),
      external: makeExamination("external"),
      canSend: true,
      sendBlockedReason: null,
    });
    const message =
      "Sending moves this record from Not started to Sent to Examiners, skipping Awaiting Review, Sent to Department and Nominations Ready: the student will see them as completed. Confirm to send.";
    const { api } = setup(nominated, [
      {
        method: "POST",
        path: `${base}/examination/send`,
        answer: (call) =>
          (call.body as { confirmOutOfOrder?: boolean }).confirmOutOfOrder
            ? { body: { data: nominated } }
            : {
                status: 409,
                body: {
                  success: false,
                  code: "confirmation_required",
                  message,
                  moves: [
                    {
                      submissionId: nominated.submissionId,
                      field: "sgsStage",
                      from: null,
                      to: "sent_to_examiners",
                      kind: "skip",
                    },
                  ],
                },
              },
      },
    ]);
    await user.click(await screen.findByRole("button", { name: "Send to examiners" }));
    await user.click(
      within(screen.getByRole("alertdialog", { name: "Send to examiners?" })).getByRole("button", {
        name: "Send the links",
      }),
    );
    const dialog = await screen.findByRole("alertdialog", {
      name: "Skip stages and send to examiners?",
    });
    expect(dialog).toHaveTextContent(message);
    expect(
      within(dialog)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Awaiting Review", "Sent to Department", "Nominations Ready"]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Yes, skip them and send" }));
    expect(
      await screen.findByText(/The link has been sent to Kofi Boateng \(internal\)/),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", `${base}/examination/send`).map((c) => c.body)).toEqual([
      {},
      { confirmOutOfOrder: true },
    ]);
  });

  it("shows the server's refusal in an alert and keeps the state shown", async () => {
    const user = userEvent.setup();
    setup(makeExaminationView({ internal: sentInternal() }), [
      {
        method: "POST",
        path: "/api/admin/examinations/501/remind",
        answer: () => ({
          status: 409,
          body: {
            success: false,
            code: "conflict",
            message: "A reminder went to this examiner within the hour.",
          },
        }),
      },
    ]);
    const internal = await roleCard("Internal examiner");
    await user.click(
      within(internal).getByRole("button", { name: "Send a reminder to the internal examiner" }),
    );
    await user.click(
      within(
        screen.getByRole("alertdialog", { name: "Send a reminder to Kofi Boateng?" }),
      ).getByRole("button", {
        name: "Send reminder",
      }),
    );
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "A reminder went to this examiner within the hour. No reminder was sent.",
    );
    expect(within(internal).getByText("Reminders sent: 2")).toBeInTheDocument();
  });

  it("checks the outcome form, then releases the outcome after confirming", async () => {
    const user = userEvent.setup();
    const reported = makeExaminationView({
      internal: {
        ...reportedExternal(),
        id: 501,
        role: "internal",
        examiner: sentInternal().examiner,
        report: {
          ...reportedExternal().report!,
          recommendation: "pass",
          href: "/api/admin/examinations/501/report",
        },
      },
      external: reportedExternal(),
      canReleaseOutcome: true,
      sendBlockedReason: "Both examiners have been sent their links.",
    });
    const { api, set } = setup(reported, [
      {
        method: "POST",
        path: `${base}/examination/outcome`,
        answer: (call) => {
          const input = call.body as OutcomeInput;
          const next = {
            ...reported,
            canReleaseOutcome: false,
            outcome: {
              decision: input.decision,
              label: "Minor corrections",
              corrections: input.corrections ?? null,
              releasedAt: "2025-03-28T10:00:00.000Z",
              correctionState: "to_upload" as const,
              correctionsApprovedAt: null,
            },
          };
          set(next);
          return { body: { data: next } };
        },
      },
    ]);
    const outcome = await screen.findByRole("region", { name: "Outcome" });
    expect(
      within(outcome).getByText(
        /The examiners recommend: Internal: Pass; External: Minor corrections/,
      ),
    ).toBeInTheDocument();

    await user.click(within(outcome).getByRole("button", { name: "Release the outcome" }));
    expect(await within(outcome).findByText("Choose the decision to release")).toBeInTheDocument();
    const decisions = within(outcome).getByRole("group", { name: "Decision" });
    expect(
      within(decisions)
        .getAllByRole("radio")
        .map((r) => r.closest("label")?.textContent),
    ).toEqual(["Pass", "Minor corrections", "Major corrections", "Resubmit", "Fail"]);
    expect(within(outcome).getByLabelText("Corrections requested (optional)")).toBeInTheDocument();

    await user.click(within(decisions).getByRole("radio", { name: "Minor corrections" }));
    const corrections = within(outcome).getByLabelText("Corrections requested");
    expect(corrections).toHaveAttribute("aria-required", "true");
    await user.click(within(outcome).getByRole("button", { name: "Release the outcome" }));
    expect(
      await within(outcome).findByText("Write the corrections the student must make"),
    ).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();

    await user.type(corrections, "Rewrite the method section of chapter 4.");
    await user.click(within(outcome).getByRole("button", { name: "Release the outcome" }));
    const dialog = screen.getByRole("alertdialog", { name: "Release the outcome?" });
    expect(dialog).toHaveTextContent("The student will be told at once");
    expect(api.callsTo("POST", `${base}/examination/outcome`)).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Release to the student" }));

    expect(
      await screen.findByText(
        "Outcome released: Minor corrections. The student has been told by message and email.",
      ),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", `${base}/examination/outcome`).map((c) => c.body)).toEqual([
      { decision: "minor_corrections", corrections: "Rewrite the method section of chapter 4." },
    ]);
    const released = await screen.findByRole("region", { name: "Outcome" });
    expect(
      await within(released).findByText("Waiting for the student to upload the corrected thesis"),
    ).toBeInTheDocument();
    expect(
      within(released).getByText("Rewrite the method section of chapter 4."),
    ).toBeInTheDocument();
    expect(
      within(released).queryByRole("button", { name: "Confirm corrections" }),
    ).not.toBeInTheDocument();
    // Once released, the examiners can no longer be replaced.
    expect(screen.queryByRole("button", { name: /^Replace/ })).not.toBeInTheDocument();
  });

  it("confirms the corrections when the corrected thesis waits", async () => {
    const user = userEvent.setup();
    const released = makeExaminationView({
      internal: { ...sentInternal(), state: "report_submitted" },
      external: reportedExternal(),
      outcome: {
        decision: "major_corrections",
        label: "Major corrections",
        corrections: "Redo the analysis.",
        releasedAt: "2025-03-28T10:00:00.000Z",
        correctionState: "to_confirm",
        correctionsApprovedAt: null,
      },
    });
    const { api, set } = setup(released, [
      {
        method: "POST",
        path: `${base}/examination/corrections/approve`,
        answer: () => {
          const next = {
            ...released,
            outcome: {
              ...released.outcome!,
              correctionState: "approved" as const,
              correctionsApprovedAt: "2025-04-20T10:00:00.000Z",
            },
          };
          set(next);
          return { body: { data: next } };
        },
      },
    ]);
    const outcome = await screen.findByRole("region", { name: "Outcome" });
    expect(within(outcome).getByText("Major corrections")).toBeInTheDocument();
    await user.click(within(outcome).getByRole("button", { name: "Confirm corrections" }));
    await user.click(
      within(screen.getByRole("alertdialog", { name: "Confirm the corrections?" })).getByRole(
        "button",
        {
          name: "Confirm corrections",
        },
      ),
    );
    expect(
      await within(outcome).findByText("Corrections approved 20 April 2025"),
    ).toBeInTheDocument();
    expect(api.callsTo("POST", `${base}/examination/corrections/approve`)).toHaveLength(1);
  });

  it("says what went wrong when the examination cannot be loaded, and offers to try again", async () => {
    mockApi([
      {
        path: `${base}/examination`,
        answer: () => ({
          status: 500,
          body: { success: false, code: "internal", message: "Internal error" },
        }),
      },
    ]);
    renderPage(
      <ExaminationPanel submissionId={submission.id} indexNumber={submission.indexNumber} />,
      {
        path: "/admin/all_submissions",
      },
    );
    const region = screen.getByRole("region", { name: "Examination" });
    expect(
      await within(region).findByText(/The server had a problem loading the examination/),
    ).toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
