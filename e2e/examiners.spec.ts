import fs from "node:fs";
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from "@playwright/test";
import { validPdf } from "../testing/pdf-fixtures.js";
import { expectAccessible } from "./support/axe.js";
import { factValue } from "./support/lines.js";
import { waitForMail } from "./support/mail.js";
import { readState } from "./support/state.js";
import {
  adminApi,
  baseUrl,
  createSubmission,
  findSubmission,
  sameOrigin,
  scrollWidth,
  signInAsAdmin,
  signInAsNewStudent,
  unique,
  uniqueIndexNumber,
} from "./support/app.js";

/**
 * Issue 9: examiners in the loop, end to end. The school nominates two examiners and sends the
 * thesis; each examiner reads the mail at the test SMTP peer, opens the personal link in a fresh
 * browser (no account, no cookie), downloads the thesis and uploads a report; the administrator's
 * list, details and dashboard and the student's status follow without anyone typing a state.
 * Then the outcome asks for minor corrections, the student uploads the corrected thesis, and the
 * internal examiner confirms it through the link the school mails for it.
 *
 * The school's own steps (adding examiners, nominating, sending, releasing the outcome) go
 * through the API: the administrator's screens for them have their own tests; this one is about
 * what moves by itself.
 */

/** The date the product shows for something that happened today (the server dates in UTC). */
function todayInWords(): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date(new Date().toISOString().slice(0, 10)));
}

/** The personal link in an examiner's mail: `${PUBLIC_URL}/examiner#<token>`. */
function linkFrom(text: string): string {
  const link = /(https?:\/\/\S+\/examiner#[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!link) throw new Error(`No examiner link in the mail: ${text}`);
  return link;
}

async function ok(response: Awaited<ReturnType<APIRequestContext["get"]>>, what: string) {
  expect(response.status(), `${what}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as { data: Record<string, unknown> };
}

async function addExaminer(
  api: APIRequestContext,
  kind: "internal" | "external",
): Promise<{ id: number; name: string; email: string }> {
  const tag = unique(kind);
  const name = kind === "internal" ? `Dr. Efua Boateng ${tag}` : `Prof. Kofi Owusu ${tag}`;
  const email = `${tag}@examiners.sgs.test`.toLowerCase();
  const { data } = await ok(
    await api.post("/api/admin/examiners", {
      data: {
        name,
        email,
        institution: kind === "internal" ? "University of Ghana" : "University of Cape Coast",
        kind,
      },
    }),
    `add the ${kind} examiner`,
  );
  return { id: data.id as number, name, email };
}

/** The student saves the thesis's title and abstract and uploads it; answers the document. */
async function uploadThesis(
  student: Page,
  index: string,
  thesis: { title: string; abstract: string; fileName: string; pdf: Buffer },
) {
  await ok(
    await student.request.put(`/api/submissions/${index}/thesis`, {
      data: { title: thesis.title, abstract: thesis.abstract },
      headers: sameOrigin(),
    }),
    "save the thesis title and abstract",
  );
  return ok(
    await student.request.post(`/api/submissions/${index}/documents/thesis`, {
      multipart: {
        file: { name: thesis.fileName, mimeType: "application/pdf", buffer: thesis.pdf },
      },
      headers: sameOrigin(),
    }),
    "upload the thesis",
  );
}

/** The school adds one internal and one external examiner and nominates them. */
async function nominateBoth(api: APIRequestContext, index: string) {
  const internal = await addExaminer(api, "internal");
  const external = await addExaminer(api, "external");
  for (const [role, examiner] of [
    ["internal", internal],
    ["external", external],
  ] as const) {
    await ok(
      await api.put(`/api/admin/submissions/${index}/examiners/${role}`, {
        data: { examinerId: examiner.id },
      }),
      `nominate the ${role} examiner`,
    );
  }
  return { internal, external };
}

/** The dashboard's figure for one examiner state in the internal or external examiner card. */
async function dashboardFigure(
  page: Page,
  who: "Internal examiner" | "External examiner",
  state: string,
): Promise<number> {
  await page.goto("/admin");
  const card = page.getByRole("region", { name: who, exact: true });
  const link = card.getByRole("link").filter({ hasText: state });
  await expect(link).toHaveCount(1);
  return Number(await link.locator(".count-list__figure").textContent());
}

/** The examiner's page, opened from the mailed link in a browser of their own. */
async function openLink(browser: Browser, link: string) {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(link);
  return { context, page };
}

/** Downloads the thesis from the examiner page; returns the file's name and bytes. */
async function downloadThesis(page: Page, button: Locator) {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) };
}

function examinationRegion(page: Page): Locator {
  return page.getByRole("region", { name: "Examination", exact: true });
}

test("examiners download the thesis and upload their reports through their links; the states move themselves, and the internal examiner confirms the corrections", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const today = todayInWords();
  const api = await adminApi();
  const title = `Groundwater recharge in the Volta basin ${unique("title")}`;
  const abstract =
    "This thesis measures how much rain reaches the aquifers of the Volta basin.\n\nIt then asks when.";
  const corrections = "Redraw the maps in chapter 2.\n\nAdd the 2024 rainfall data to table 4.";

  // A submission at the department, whose student has uploaded the thesis, accepted by the school.
  const submission = await createSubmission(api, {
    studentName: `Akosua ${unique("Examined").replace(/-/g, "")}`,
    indexNumber: uniqueIndexNumber(),
    programme: "MPhil Geography",
    sgsStage: "sent_to_department",
  });
  const index = encodeURIComponent(submission.indexNumber);
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  const internalRun: { context?: Awaited<ReturnType<typeof openLink>>["context"] } = {};
  try {
    await signInAsNewStudent(student, submission.indexNumber, "examined");
    const thesisPdf = validPdf({ pages: 3 });
    const uploaded = await uploadThesis(student, index, {
      title,
      abstract,
      fileName: "thesis-final.pdf",
      pdf: thesisPdf,
    });
    await ok(
      await api.post(`/api/admin/documents/${uploaded.data.id as number}/accept`, { data: {} }),
      "accept the thesis",
    );

    await signInAsAdmin(page);
    const reportsBefore = {
      internal: await dashboardFigure(page, "Internal examiner", "Report Submitted"),
      external: await dashboardFigure(page, "External examiner", "Report Submitted"),
    };

    // The school nominates one internal and one external examiner and sends the thesis.
    const { internal, external } = await nominateBoth(api, index);
    await ok(
      await api.post(`/api/admin/submissions/${index}/examination/send`, { data: {} }),
      "send to the examiners",
    );

    // Each examiner: the mail, the link in a fresh browser, the download, the report.
    for (const [examiner, recommendation] of [
      [external, "Pass"],
      [internal, "Minor corrections"],
    ] as const) {
      const mail = await waitForMail(examiner.email, (m) =>
        m.subject.startsWith("Thesis for examination"),
      );
      expect(mail.text).toContain(title);
      expect(mail.text).not.toContain(submission.studentName);
      const link = linkFrom(mail.text);
      expect(link.startsWith(`${baseUrl()}/examiner#`)).toBe(true);

      const { context, page: examinerPage } = await openLink(browser, link);
      try {
        await expect(examinerPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
        // The token left the address bar as soon as the page had it.
        await expect(examinerPage).toHaveURL(`${baseUrl()}/examiner`);
        await expect(examinerPage.getByText(`Dear ${examiner.name}`)).toBeVisible();
        await expect(factValue(examinerPage.locator(".examiner__header"), "Programme")).toHaveText(
          "MPhil Geography",
        );
        await expect(
          examinerPage.getByRole("region", { name: "Abstract" }).locator(".examiner__text"),
        ).toHaveText(abstract, { useInnerText: true });
        await expect(examinerPage.locator("body")).not.toContainText(submission.studentName);

        const { name, bytes } = await downloadThesis(
          examinerPage,
          examinerPage.getByRole("button", { name: /^Download the thesis \(PDF, / }),
        );
        expect(name).toBe("thesis-final.pdf");
        expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        expect(bytes.length).toBe(thesisPdf.length);
        await expect(
          examinerPage.getByText("thesis-final.pdf is in your browser's downloads."),
        ).toBeVisible();
        await expect(
          factValue(examinerPage.locator(".examiner__header"), "You downloaded it"),
        ).toHaveText(today);

        // A reload keeps the page (the token stayed in this tab only).
        await examinerPage.reload();
        await expect(examinerPage.getByRole("heading", { level: 1, name: title })).toBeVisible();

        await examinerPage.getByRole("radio", { name: new RegExp(`^${recommendation}`) }).check();
        await examinerPage
          .getByLabel("Note to the school (optional)")
          .fill(`Report by the ${examiner === internal ? "internal" : "external"} examiner.`);
        await examinerPage.getByLabel("Choose your report (PDF)").setInputFiles({
          name: "examiner-report.pdf",
          mimeType: "application/pdf",
          buffer: validPdf({ pages: 2 }),
        });
        await expectAccessible(examinerPage);
        await examinerPage.getByRole("button", { name: "Send your report" }).click();
        const thanks = examinerPage.getByRole("heading", {
          name: `Thank you, your report was received on ${today}`,
        });
        await expect(thanks).toBeVisible({ timeout: 30_000 });
        await expect(thanks).toBeFocused();
        await expect(examinerPage.locator("body")).toContainText(recommendation);
        await expectAccessible(examinerPage);
      } finally {
        await context.close();
      }
    }

    // The school: mailed about each report; the list, the details and the dashboard moved.
    await waitForMail(readState().admin.email, (m) =>
      m.subject.includes(`External examiner's report received: ${submission.studentName}`),
    );
    await page.goto(`/admin/all_submissions?q=${index}`);
    const rows = page.locator("table.submissions-table tbody tr");
    await expect(rows).toHaveCount(1);
    await rows.first().click();
    const panel = page.getByRole("dialog", { name: "Submission Details" });
    await expect(factValue(panel, "Index Number")).toHaveText(submission.indexNumber);
    await expect(panel.getByTestId("marker-Internal")).toContainText("Report Submitted");
    await expect(panel.getByTestId("marker-External")).toContainText("Report Submitted");
    expect(await dashboardFigure(page, "Internal examiner", "Report Submitted")).toBe(
      reportsBefore.internal + 1,
    );
    expect(await dashboardFigure(page, "External examiner", "Report Submitted")).toBe(
      reportsBefore.external + 1,
    );

    // The student: both reports received, with dates, never who.
    await student.goto("/dashboard/status");
    const examination = examinationRegion(student);
    await expect(examination).toContainText(`Internal examiner's report received on ${today}`);
    await expect(examination).toContainText(`External examiner's report received on ${today}`);
    await expect(examination).toContainText(`Thesis sent to the internal examiner on ${today}`);
    await expect(student.locator("body")).not.toContainText(internal.name);
    await expect(student.locator("body")).not.toContainText(external.name);

    // The school releases the outcome: minor corrections.
    await ok(
      await api.post(`/api/admin/submissions/${index}/examination/outcome`, {
        data: { decision: "minor_corrections", corrections },
      }),
      "release the outcome",
    );

    // The student reads it and uploads the corrected thesis where the page says.
    await student.reload();
    await expect(examination).toContainText("Minor corrections");
    await expect(examination.locator(".examination__corrections-text")).toHaveText(corrections, {
      useInnerText: true,
    });
    await expect(examination).toContainText("Upload your corrected thesis in Your documents.");
    const thesisRow = student
      .getByRole("region", { name: "Your documents" })
      .getByRole("listitem", { name: "Thesis", exact: true });
    await expect(thesisRow).toContainText("Upload your corrected thesis");
    await expectAccessible(student);
    await thesisRow.getByLabel("Choose a PDF for the Thesis").setInputFiles({
      name: "thesis-corrected.pdf",
      mimeType: "application/pdf",
      buffer: validPdf({ pages: 4 }),
    });
    await expect(
      thesisRow
        .getByRole("status")
        .filter({ hasText: "thesis-corrected.pdf uploaded. The school will review it." }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(examination).toContainText(
      "Your corrected thesis is with the internal examiner for confirmation.",
    );

    // The internal examiner: the mail says the corrected thesis is ready; the link opens it.
    const ready = await waitForMail(internal.email, (m) =>
      m.subject.startsWith("Corrected thesis ready for your confirmation"),
    );
    const opened = await openLink(browser, linkFrom(ready.text));
    internalRun.context = opened.context;
    const examinerPage = opened.page;
    const step = examinerPage.getByRole("region", { name: "Confirm the corrections" });
    await expect(step.locator(".examiner__text")).toHaveText(corrections, { useInnerText: true });
    const corrected = await downloadThesis(
      examinerPage,
      step.getByRole("button", { name: /^Download the corrected thesis \(PDF, / }),
    );
    expect(corrected.name).toBe("thesis-corrected.pdf");
    expect(corrected.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await step.getByRole("button", { name: "Confirm the corrections" }).click();
    const dialog = examinerPage.getByRole("alertdialog", { name: "Confirm the corrections?" });
    await dialog.getByRole("button", { name: "Yes, confirm the corrections" }).click();
    await expect(examinerPage.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
    await expect(examinerPage.locator("body")).toContainText(
      `The corrections were approved on ${today}.`,
    );
    await expectAccessible(examinerPage);

    // The student sees the corrections approved, in the section and in the Thesis Status line.
    await student.reload();
    await expect(examination).toContainText(`Corrections approved on ${today}.`);
    await expect(
      factValue(student.getByRole("region", { name: "Submission Status" }), "Thesis Status"),
    ).toHaveText("Corrections approved");
  } finally {
    await internalRun.context?.close();
    await studentContext.close();
    await api.dispose();
  }
});

test("a link that does not open an examination says so on a phone, with the school's contact, never an error page", async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  try {
    // A well-formed token the server never issued.
    await page.goto(`/examiner#${"A".repeat(43)}`);
    await expect(
      page.getByRole("heading", { level: 1, name: "This link does not open an examination" }),
    ).toBeVisible();
    await expect(page).toHaveURL(`${baseUrl()}/examiner`);
    await expect(
      page.getByRole("link", { name: "Contact the School of Graduate Studies" }),
    ).toBeVisible();
    await expect(page.locator("body")).toContainText(readState().contactEmail);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    await expectAccessible(page);

    // Without a link at all.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto("/examiner");
    await expect(
      page.getByRole("heading", { level: 1, name: "Open this page from your invitation email" }),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test("sending to examiners from an early stage asks first, naming the stages it skips, and moves nothing until confirmed", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  // Seen in use: stage "Not started", the thesis uploaded but not reviewed.
  const submission = await createSubmission(api, {
    studentName: `Kwame ${unique("Early").replace(/-/g, "")}`,
    indexNumber: uniqueIndexNumber(),
    programme: "MPhil Geography",
  });
  expect(submission.sgsStage).toBeNull();
  const index = encodeURIComponent(submission.indexNumber);
  const studentContext = await browser.newContext();
  try {
    const student = await studentContext.newPage();
    await signInAsNewStudent(student, submission.indexNumber, "early");
    await uploadThesis(student, index, {
      title: "Soil moisture in the coastal savannah",
      abstract: "Where the rain goes.",
      fileName: "thesis.pdf",
      pdf: validPdf({ pages: 2 }),
    });
  } finally {
    await studentContext.close();
  }
  const { internal } = await nominateBoth(api, index);

  await signInAsAdmin(page);
  await page.goto(`/admin/all_submissions?q=${index}`);
  const rows = page.locator("table.submissions-table tbody tr");
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  const panel = page.getByRole("dialog", { name: "Submission Details" });
  await expect(factValue(panel, "Index Number")).toHaveText(submission.indexNumber);

  const askToSend = async () => {
    await panel.getByRole("button", { name: "Send to examiners" }).click();
    await page
      .getByRole("alertdialog", { name: "Send to examiners?" })
      .getByRole("button", { name: "Send the links" })
      .click();
    const skip = page.getByRole("alertdialog", { name: "Skip stages and send to examiners?" });
    await expect(skip).toContainText(
      "Sending moves this record from Not started to Sent to Examiners, skipping Awaiting Review, Sent to Department and Nominations Ready: the student will see them as completed.",
    );
    await expect(skip.getByRole("listitem")).toHaveText([
      "Awaiting Review",
      "Sent to Department",
      "Nominations Ready",
    ]);
    return skip;
  };

  // Going back moves nothing and mails nobody.
  await (await askToSend()).getByRole("button", { name: "No, go back" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  const unchanged = await ok(
    await api.get(`/api/admin/submissions/${index}/examination`),
    "read the examination",
  );
  expect(unchanged.data.canSend).toBe(true);
  expect((await findSubmission(api, submission.indexNumber)).sgsStage).toBeNull();

  // Confirmed: sent, and the record moves, the skip recorded as confirmed.
  const skip = await askToSend();
  await expectAccessible(page);
  await skip.getByRole("button", { name: "Yes, skip them and send" }).click();
  await expect(panel).toContainText(`The link has been sent to ${internal.name} (internal)`);
  expect((await findSubmission(api, submission.indexNumber)).sgsStage).toBe("sent_to_examiners");
  await waitForMail(internal.email, (m) => m.subject.startsWith("Thesis for examination"));
});
