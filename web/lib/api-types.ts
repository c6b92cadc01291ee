/**
 * The API's types, generated from /api/openapi.json by `npm run api:generate`
 * (scripts/api-contract.ts, openapi-typescript). Do not edit: change the route's schema and
 * generate again. scripts/api-contract.test.ts fails when this file is not what the routes make.
 */

export interface paths {
  "/api/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Whether the server and its database answer */
    get: operations["getHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/health/ready": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Whether this server should be sent traffic: its database answers and has every migration applied */
    get: operations["getReadiness"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/create_user": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Student sign-up: mails a six-digit code (a `password` field is ignored) */
    post: operations["signUp"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/user_sign_in": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Sign in with a password or a code; sets the session cookie */
    post: operations["signIn"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/logout": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** End the session (answers success when there was none); `redirectTo` is the provider's sign-out after a single sign-on */
    post: operations["signOut"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed-in user */
    get: operations["getCurrentUser"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/session": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed-in user, or null when nobody is signed in */
    get: operations["getSession"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/request_code": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mail a new code to a student account (same answer whether it exists or not) */
    post: operations["requestSignInCode"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/change_password": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Set the signed-in user's password */
    post: operations["changePassword"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A student's submission status (the prototype's status call) */
    get: operations["getSubmissionStatus"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/timeline": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dated milestones of a submission, for its student or an administrator */
    get: operations["getSubmissionTimeline"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Search, filter, sort and page through all submissions */
    get: operations["listSubmissions"];
    put?: never;
    /** Add a submission */
    post: operations["createSubmission"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One submission with its version, for editing */
    get: operations["getSubmission"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Edit and advance a submission (optimistic concurrency on version) */
    patch: operations["updateSubmission"];
    trace?: never;
  };
  "/api/admin/submissions/{id}/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every recorded change of a submission, oldest first, with who made it */
    get: operations["listSubmissionEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/bulk": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Set a stage or examiner state on many submissions in one transaction */
    post: operations["bulkUpdateSubmissions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/import/preview": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Check a CSV or XLSX file of records and say what importing it would do */
    post: operations["previewImport"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/import/apply": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Import a CSV or XLSX file of records: all rows or none */
    post: operations["applyImport"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Download the listed submissions (same filters as the list) as CSV or XLSX */
    get: operations["exportSubmissions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/financial-clearance": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** The finance office's system sets a student's Financial Clearance (API token with clearance:write) */
    put: operations["setFinancialClearance"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/upsert": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The registrar's upsert of submissions by index number: all records or none, with an Idempotency-Key */
    post: operations["upsertSubmissions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/messages": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed-in student's messages and broadcasts, newest first */
    get: operations["listMessages"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/messages/{id}/read": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mark one of the student's messages read */
    post: operations["markMessageRead"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/messages": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a notice to one student (by index number) or to every student */
    post: operations["sendNotice"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/contact": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The public contact form */
    post: operations["sendContactMessage"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/contact_messages": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Messages sent through the contact form, newest first */
    get: operations["listContactMessages"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Administrators and students, each student with their linked submission */
    get: operations["listUsers"];
    put?: never;
    /** Create an administrator (the new_user_entry form) */
    post: operations["createAdmin"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/deactivate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Deactivate an account; its sessions end at once */
    post: operations["deactivateUser"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/reactivate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reactivate an account */
    post: operations["reactivateUser"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/resend_code": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mail a student a new sign-in code */
    post: operations["resendSignInCode"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/mail/failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Mail that could not be delivered after every retry */
    get: operations["listFailedMail"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Webhook endpoints, newest first, a page at a time */
    get: operations["listWebhooks"];
    put?: never;
    /** Register an endpoint; its signing secret is in this answer only */
    post: operations["createWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks/{id}/enable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Enable an endpoint: its waiting deliveries go */
    post: operations["enableWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks/{id}/disable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Disable an endpoint: its deliveries wait until it is enabled */
    post: operations["disableWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete an endpoint with its deliveries */
    delete: operations["deleteWebhook"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An endpoint's delivery log, newest first, with each delivery's attempts */
    get: operations["listWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a delivery again (a new delivery of the same event) */
    post: operations["redeliverWebhookDelivery"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/stats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Figures for the administrator's dashboard */
    get: operations["getStats"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/reports": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Figures from the history: stage times, examiner turnaround, outcomes, throughput */
    get: operations["getReportFigures"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/reports/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Download a Reports table as CSV (table required) or the tables as XLSX (one sheet each, or the one named) */
    get: operations["exportReportTable"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/reports/dean.pdf": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The dean's report as a PDF: cover with the period and headline figures, charts, tables, late reports */
    get: operations["getDeanReportPdf"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/documents": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A submission's documents: each checklist item, its versions, the thesis details */
    get: operations["listSubmissionDocuments"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/thesis": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Save the thesis title and abstract (the student, or an administrator) */
    put: operations["saveThesisDetails"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/documents/{item}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Upload a new version of a checklist item as a PDF (multipart field file; the student only) */
    post: operations["uploadDocument"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/documents/{id}/file": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read an uploaded PDF (its student or an administrator) */
    get: operations["getDocumentFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/documents/{id}/accept": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Accept the current version of a document waiting for review: its checklist item is received today */
    post: operations["acceptDocument"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/documents/{id}/return": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Return the current version of a document to the student with a reason (also undoes an acceptance) */
    post: operations["returnDocument"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{id}/documents.zip": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every current document of a submission in one zip (404 when none was uploaded) */
    get: operations["downloadSubmissionDocuments"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/examiners": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The examiner list: search (name, email, institution), kind, active; paged */
    get: operations["listExaminers"];
    put?: never;
    /** Add an examiner (409 when the email is already on the list) */
    post: operations["createExaminer"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/examiners/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Change an examiner's fields; active false hides them from nomination */
    patch: operations["updateExaminer"];
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/examination": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A submission's examination: examiners per role, links, reports, outcome */
    get: operations["getExamination"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/examiners/{role}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Nominate the internal or external examiner, or replace the current one */
    put: operations["nominateExaminer"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/examination/send": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mail each examiner their personal link (a named role gets a new link) */
    post: operations["sendToExaminers"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/examinations/{id}/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Stop an examiner's link at once */
    post: operations["revokeExaminerLink"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/examinations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Change an examination's due date */
    patch: operations["changeExaminationDueDate"];
    trace?: never;
  };
  "/api/admin/examinations/{id}/report": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read an examiner's report (PDF, inline) */
    get: operations["getExaminerReport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/examination/outcome": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Release the outcome to the student once both reports are in */
    post: operations["releaseOutcome"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/examination/corrections/approve": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Approve the corrected thesis: Thesis Status becomes Corrections approved */
    post: operations["approveCorrections"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/examination": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The student's view of the examination: dates and the released outcome, never the examiners */
    get: operations["getStudentExamination"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/examiner/assignment": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The examiner's assignment: the thesis, the due date, their report (link token) */
    get: operations["getExaminerAssignment"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/examiner/thesis": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Download the current thesis PDF; the first download marks it received */
    get: operations["downloadExaminerThesis"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/examiner/report": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Upload the examiner's report: multipart fields recommendation and note first, then file (PDF) */
    post: operations["uploadExaminerReport"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/examiner/corrections/approve": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The internal examiner confirms the corrected thesis */
    post: operations["examinerApproveCorrections"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/examinations/{id}/remind": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mail the examiner a reminder now (409 when the report is in, the link is not working, or a reminder went within the hour) */
    post: operations["sendExaminerReminder"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sso": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The single sign-on buttons for the login page, and which local sign-ins stay */
    get: operations["getSsoOptions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/publication": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The student's publication record: metadata, licence, embargo, where published */
    get: operations["getStudentPublication"];
    /** The student saves keywords, language and supervisors (until the school confirms) */
    put: operations["saveStudentPublication"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/publication/licence": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The student accepts the current licence version (audited: who, which, when, from where) */
    post: operations["acceptPublicationLicence"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/submissions/{indexNumber}/publication/embargo": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** The student chooses the embargo; patent or sensitive needs a reason and the school's approval */
    put: operations["choosePublicationEmbargo"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/licence": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The school's current distribution licence (null before the first version) */
    get: operations["getCurrentLicence"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/licence/{version}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One version of the licence, for the student who accepted it (older versions stay readable) */
    get: operations["getLicenceVersionText"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/publication": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A submission's publication record, what it still needs, and its state */
    get: operations["getAdminPublication"];
    /** Correct any metadata field, and confirm (publishes once every condition holds); locked after deposit */
    put: operations["correctPublication"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/publication/embargo-decision": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Approve (with its end date) or refuse (with a note) a patent or sensitive embargo */
    post: operations["decidePublicationEmbargo"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/publication/withdraw": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Withdraw a published thesis (reason required, audited): files no longer served, OAI deleted */
    post: operations["withdrawPublication"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/licence-versions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The licence's versions, newest first, with their text; paged */
    get: operations["listLicenceVersions"];
    put?: never;
    /** Save a new licence version; students accept the newest from then on */
    post: operations["createLicenceVersion"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/licence-versions/{version}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One licence version's text (older versions stay readable) */
    get: operations["getLicenceVersion"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/degrees": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The degrees the school awards, by name; paged */
    get: operations["listDegrees"];
    put?: never;
    /** Add a degree (409 when the name is already on the list) */
    post: operations["createDegree"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/degrees/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Change a degree's name, abbreviation, level or whether it is still awarded */
    patch: operations["updateDegree"];
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/publication/export/{format}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One published thesis for the library: saf (DSpace Simple Archive Format zip), marcxml, etdms or dc */
    get: operations["exportPublishedThesis"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/publication/export/{format}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every published thesis awarded in a date range, streamed: saf (zip), marcxml, etdms or dc */
    get: operations["exportPublishedTheses"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/submissions/{indexNumber}/publication/deposit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A thesis's deposit to the repository: queued, depositing, deposited (handle) or failed */
    get: operations["getThesisDeposit"];
    put?: never;
    /** Queue a published thesis's deposit to the repository (asking again while queued or deposited changes nothing; a failed one is retried) */
    post: operations["depositThesis"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/publication/deposits": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Deposits, newest first, 50 a page (keyset: pass `next` as `after`) */
    get: operations["listDeposits"];
    put?: never;
    /** Queue the deposit of several published theses (at most 100) */
    post: operations["depositTheses"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/api-tokens": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** API tokens, newest first, with when and from where each was last used */
    get: operations["listApiTokens"];
    put?: never;
    /** Create an API token; the answer carries the token, shown this once */
    post: operations["createApiToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/api-tokens/{id}/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Revoke an API token: every request with it is refused from now on */
    post: operations["revokeApiToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      /** @enum {boolean} */
      success: false;
      code: string;
      message: string;
      fields?: {
        field: string;
        message: string;
      }[];
    };
  };
  responses: {
    /** @description The request is not valid (code `validation`): `message` says why and `fields` names each field and what is wrong with it. */
    ValidationFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Nobody is signed in, or the credentials are not valid (code `unauthorized`). */
    Unauthenticated: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Signed in without access to this, or a cross-site write refused (code `forbidden`). */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Nothing with that identifier is on file, or it is not yours (code `not_found`). */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The request body is larger than this operation accepts (code `payload_too_large`). */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Too many requests (code `rate_limited`): `message` says how long to wait; `Retry-After` gives seconds where known. */
    RateLimited: {
      headers: {
        /** @description Seconds to wait before trying again, where known. */
        "Retry-After"?: number;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            status: "ok";
            /** @enum {string} */
            database: "ok";
          };
        };
      };
      /** @description Default Response */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            status: "unavailable";
            /** @enum {string} */
            database: "unreachable";
          };
        };
      };
    };
  };
  getReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            status: "ready";
          };
        };
      };
      /** @description Default Response */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            status: "unavailable";
            reason: string;
          };
        };
      };
    };
  };
  signUp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          indexNumber: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  signIn: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          password: string;
          rememberMe?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
            token: string;
            user: {
              /** @enum {string} */
              role: "student" | "admin";
              indexNumber: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  signOut: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            redirectTo?: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getCurrentUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            user: {
              id: number;
              email: string;
              name: string | null;
              /** @enum {string} */
              role: "student" | "admin";
              indexNumber: string | null;
              hasPassword: boolean;
            };
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            user: {
              id: number;
              email: string;
              name: string | null;
              /** @enum {string} */
              role: "student" | "admin";
              indexNumber: string | null;
              hasPassword: boolean;
            } | null;
          };
        };
      };
    };
  };
  requestSignInCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  changePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          currentPassword?: string;
          newPassword: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getSubmissionStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              status: {
                /** @enum {string} */
                awaitingReview: "Completed" | "In progress" | "Pending";
                /** @enum {string} */
                sentToDepartment: "Completed" | "In progress" | "Pending";
                /** @enum {string} */
                nominationsReady: "Completed" | "In progress" | "Pending";
                /** @enum {string} */
                sentToInternal: "Completed" | "In progress" | "Pending";
                /** @enum {string} */
                sentToExternal: "Completed" | "In progress" | "Pending";
                internalReport: string;
                externalReport: string;
                thesisStatus: string | null;
              };
              documents: {
                /** @enum {string} */
                item:
                  | "thesis"
                  | "turnitinReport"
                  | "supervisorForm"
                  | "statementOfResult"
                  | "financialClearance";
                label: string;
                submitted: boolean;
                receivedOn: string | null;
                clearedBy?: {
                  system: string;
                  at: string;
                };
              }[];
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  getSubmissionTimeline: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              at: string;
              label: string;
            }[];
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  listSubmissions: {
    parameters: {
      query?: {
        q?: string;
        programme?: string;
        sgsStage?:
          | "awaiting_review"
          | "sent_to_department"
          | "nominations_ready"
          | "sent_to_examiners"
          | "none";
        internalExaminer?: "awaiting" | "received" | "report_submitted" | "none";
        externalExaminer?: "awaiting" | "received" | "report_submitted" | "none";
        thesisStatus?: string;
        missingDocument?:
          | "thesis"
          | "turnitinReport"
          | "supervisorForm"
          | "statementOfResult"
          | "financialClearance";
        documents?: "missing" | "waiting" | "returned";
        sort?: "name" | "indexNumber" | "programme" | "createdAt" | "updatedAt";
        order?: "asc" | "desc";
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              studentEmail: string | null;
              documents: {
                thesis: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                turnitinReport: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                supervisorForm: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                statementOfResult: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                financialClearance: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
              };
              /** @enum {string|null} */
              sgsStage:
                | "awaiting_review"
                | "sent_to_department"
                | "nominations_ready"
                | "sent_to_examiners"
                | null;
              /** @enum {string|null} */
              internalExaminer: "awaiting" | "received" | "report_submitted" | null;
              /** @enum {string|null} */
              externalExaminer: "awaiting" | "received" | "report_submitted" | null;
              thesisStatus: string | null;
              effectiveDate: string | null;
              thesisTitle: string | null;
              thesisAbstract: string | null;
              documentsToReview: number;
              financialClearanceBy?: {
                system: string;
                at: string;
              };
              createdAt: string;
              updatedAt: string;
              version: number;
            }[];
            total: number;
            totalCapped: boolean;
            page: number;
            pageSize: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  createSubmission: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          studentName: string;
          programme: string;
          contact?: string | null;
          /** Format: email */
          studentEmail?: string | null;
          documents?: {
            thesis?: {
              submitted: boolean;
              receivedOn?: string | null;
            };
            turnitinReport?: {
              submitted: boolean;
              receivedOn?: string | null;
            };
            supervisorForm?: {
              submitted: boolean;
              receivedOn?: string | null;
            };
            statementOfResult?: {
              submitted: boolean;
              receivedOn?: string | null;
            };
            financialClearance?: {
              submitted: boolean;
              receivedOn?: string | null;
            };
          };
          /** @enum {string|null} */
          sgsStage?:
            | "awaiting_review"
            | "sent_to_department"
            | "nominations_ready"
            | "sent_to_examiners"
            | null;
          /** @enum {string|null} */
          internalExaminer?: "awaiting" | "received" | "report_submitted" | null;
          /** @enum {string|null} */
          externalExaminer?: "awaiting" | "received" | "report_submitted" | null;
          thesisStatus?: string | null;
          effectiveDate?: string | null;
          indexNumber: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              studentEmail: string | null;
              documents: {
                thesis: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                turnitinReport: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                supervisorForm: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                statementOfResult: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                financialClearance: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
              };
              /** @enum {string|null} */
              sgsStage:
                | "awaiting_review"
                | "sent_to_department"
                | "nominations_ready"
                | "sent_to_examiners"
                | null;
              /** @enum {string|null} */
              internalExaminer: "awaiting" | "received" | "report_submitted" | null;
              /** @enum {string|null} */
              externalExaminer: "awaiting" | "received" | "report_submitted" | null;
              thesisStatus: string | null;
              effectiveDate: string | null;
              thesisTitle: string | null;
              thesisAbstract: string | null;
              documentsToReview: number;
              financialClearanceBy?: {
                system: string;
                at: string;
              };
              createdAt: string;
              updatedAt: string;
              version: number;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  getSubmission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              studentEmail: string | null;
              documents: {
                thesis: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                turnitinReport: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                supervisorForm: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                statementOfResult: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                financialClearance: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
              };
              /** @enum {string|null} */
              sgsStage:
                | "awaiting_review"
                | "sent_to_department"
                | "nominations_ready"
                | "sent_to_examiners"
                | null;
              /** @enum {string|null} */
              internalExaminer: "awaiting" | "received" | "report_submitted" | null;
              /** @enum {string|null} */
              externalExaminer: "awaiting" | "received" | "report_submitted" | null;
              thesisStatus: string | null;
              effectiveDate: string | null;
              thesisTitle: string | null;
              thesisAbstract: string | null;
              documentsToReview: number;
              financialClearanceBy?: {
                system: string;
                at: string;
              };
              createdAt: string;
              updatedAt: string;
              version: number;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  updateSubmission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          version: number;
          changes: {
            studentName?: string;
            programme?: string;
            contact?: string | null;
            /** Format: email */
            studentEmail?: string | null;
            documents?: {
              thesis?: {
                submitted: boolean;
                receivedOn?: string | null;
              };
              turnitinReport?: {
                submitted: boolean;
                receivedOn?: string | null;
              };
              supervisorForm?: {
                submitted: boolean;
                receivedOn?: string | null;
              };
              statementOfResult?: {
                submitted: boolean;
                receivedOn?: string | null;
              };
              financialClearance?: {
                submitted: boolean;
                receivedOn?: string | null;
              };
            };
            /** @enum {string|null} */
            sgsStage?:
              | "awaiting_review"
              | "sent_to_department"
              | "nominations_ready"
              | "sent_to_examiners"
              | null;
            /** @enum {string|null} */
            internalExaminer?: "awaiting" | "received" | "report_submitted" | null;
            /** @enum {string|null} */
            externalExaminer?: "awaiting" | "received" | "report_submitted" | null;
            thesisStatus?: string | null;
            effectiveDate?: string | null;
          };
          confirmOutOfOrder?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              studentEmail: string | null;
              documents: {
                thesis: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                turnitinReport: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                supervisorForm: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                statementOfResult: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                financialClearance: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
              };
              /** @enum {string|null} */
              sgsStage:
                | "awaiting_review"
                | "sent_to_department"
                | "nominations_ready"
                | "sent_to_examiners"
                | null;
              /** @enum {string|null} */
              internalExaminer: "awaiting" | "received" | "report_submitted" | null;
              /** @enum {string|null} */
              externalExaminer: "awaiting" | "received" | "report_submitted" | null;
              thesisStatus: string | null;
              effectiveDate: string | null;
              thesisTitle: string | null;
              thesisAbstract: string | null;
              documentsToReview: number;
              financialClearanceBy?: {
                system: string;
                at: string;
              };
              createdAt: string;
              updatedAt: string;
              version: number;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "conflict";
                message: string;
                current: {
                  id: number;
                  studentName: string;
                  indexNumber: string;
                  programme: string;
                  contact: string | null;
                  studentEmail: string | null;
                  documents: {
                    thesis: {
                      submitted: boolean;
                      receivedOn: string | null;
                    };
                    turnitinReport: {
                      submitted: boolean;
                      receivedOn: string | null;
                    };
                    supervisorForm: {
                      submitted: boolean;
                      receivedOn: string | null;
                    };
                    statementOfResult: {
                      submitted: boolean;
                      receivedOn: string | null;
                    };
                    financialClearance: {
                      submitted: boolean;
                      receivedOn: string | null;
                    };
                  };
                  /** @enum {string|null} */
                  sgsStage:
                    | "awaiting_review"
                    | "sent_to_department"
                    | "nominations_ready"
                    | "sent_to_examiners"
                    | null;
                  /** @enum {string|null} */
                  internalExaminer: "awaiting" | "received" | "report_submitted" | null;
                  /** @enum {string|null} */
                  externalExaminer: "awaiting" | "received" | "report_submitted" | null;
                  thesisStatus: string | null;
                  effectiveDate: string | null;
                  thesisTitle: string | null;
                  thesisAbstract: string | null;
                  documentsToReview: number;
                  financialClearanceBy?: {
                    system: string;
                    at: string;
                  };
                  createdAt: string;
                  updatedAt: string;
                  version: number;
                };
              }
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "confirmation_required";
                message: string;
                moves: {
                  submissionId: number;
                  /** @enum {string} */
                  field: "sgsStage" | "internalExaminer" | "externalExaminer";
                  from: string | null;
                  to: string | null;
                  /** @enum {string} */
                  kind: "skip" | "reverse";
                }[];
              }
            | {
                /** @enum {boolean} */
                success: false;
                code: string;
                message: string;
                fields?: {
                  field: string;
                  message: string;
                }[];
              };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  listSubmissionEvents: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              at: string;
              actor: {
                id: number;
                email: string;
                name: string | null;
              } | null;
              field: string;
              from: string | null;
              to: string | null;
              kind: string;
              confirmedOutOfOrder: boolean;
            }[];
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  bulkUpdateSubmissions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          ids: number[];
          set: {
            /** @enum {string|null} */
            sgsStage?:
              | "awaiting_review"
              | "sent_to_department"
              | "nominations_ready"
              | "sent_to_examiners"
              | null;
            /** @enum {string|null} */
            internalExaminer?: "awaiting" | "received" | "report_submitted" | null;
            /** @enum {string|null} */
            externalExaminer?: "awaiting" | "received" | "report_submitted" | null;
          };
          confirmOutOfOrder?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            updated: number;
            items: {
              id: number;
              studentName: string;
              indexNumber: string;
              programme: string;
              contact: string | null;
              studentEmail: string | null;
              documents: {
                thesis: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                turnitinReport: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                supervisorForm: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                statementOfResult: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
                financialClearance: {
                  submitted: boolean;
                  receivedOn: string | null;
                };
              };
              /** @enum {string|null} */
              sgsStage:
                | "awaiting_review"
                | "sent_to_department"
                | "nominations_ready"
                | "sent_to_examiners"
                | null;
              /** @enum {string|null} */
              internalExaminer: "awaiting" | "received" | "report_submitted" | null;
              /** @enum {string|null} */
              externalExaminer: "awaiting" | "received" | "report_submitted" | null;
              thesisStatus: string | null;
              effectiveDate: string | null;
              thesisTitle: string | null;
              thesisAbstract: string | null;
              documentsToReview: number;
              financialClearanceBy?: {
                system: string;
                at: string;
              };
              createdAt: string;
              updatedAt: string;
              version: number;
            }[];
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "confirmation_required";
                message: string;
                moves: {
                  submissionId: number;
                  /** @enum {string} */
                  field: "sgsStage" | "internalExaminer" | "externalExaminer";
                  from: string | null;
                  to: string | null;
                  /** @enum {string} */
                  kind: "skip" | "reverse";
                }[];
              }
            | {
                /** @enum {boolean} */
                success: false;
                code: string;
                message: string;
                fields?: {
                  field: string;
                  message: string;
                }[];
              };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  previewImport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            rows: number;
            inserts: number;
            updates: number;
            unchanged: number;
            errors: {
              row: number;
              column: string | null;
              reason: string;
            }[];
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  applyImport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            inserted: number;
            updated: number;
            unchanged: number;
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "validation";
                message: string;
                errors: {
                  row: number;
                  column: string | null;
                  reason: string;
                }[];
              }
            | {
                /** @enum {boolean} */
                success: false;
                code: string;
                message: string;
                fields?: {
                  field: string;
                  message: string;
                }[];
              };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  exportSubmissions: {
    parameters: {
      query?: {
        q?: string;
        programme?: string;
        sgsStage?:
          | "awaiting_review"
          | "sent_to_department"
          | "nominations_ready"
          | "sent_to_examiners"
          | "none";
        internalExaminer?: "awaiting" | "received" | "report_submitted" | "none";
        externalExaminer?: "awaiting" | "received" | "report_submitted" | "none";
        thesisStatus?: string;
        missingDocument?:
          | "thesis"
          | "turnitinReport"
          | "supervisorForm"
          | "statementOfResult"
          | "financialClearance";
        documents?: "missing" | "waiting" | "returned";
        format?: "csv" | "xlsx";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as the answer's body */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/csv": string;
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  setFinancialClearance: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          cleared: boolean;
          clearedOn?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              indexNumber: string;
              financialClearance: {
                submitted: boolean;
                receivedOn: string | null;
                clearedBy: {
                  system: string;
                  at: string;
                } | null;
              };
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  upsertSubmissions: {
    parameters: {
      query?: never;
      header: {
        "idempotency-key": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          records: unknown[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            inserted: number;
            updated: number;
            unchanged: number;
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "validation";
                message: string;
                errors: {
                  row: number;
                  column: string | null;
                  reason: string;
                }[];
              }
            | {
                /** @enum {boolean} */
                success: false;
                code: string;
                message: string;
                fields?: {
                  field: string;
                  message: string;
                }[];
              };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  listMessages: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              title: string | null;
              body: string;
              createdAt: string;
              read: boolean;
              broadcast: boolean;
            }[];
            unreadCount: number;
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  markMessageRead: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  sendNotice: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          indexNumber?: string;
          broadcast?: boolean;
          title?: string | null;
          body: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  sendContactMessage: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          message: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  listContactMessages: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              email: string;
              message: string;
              createdAt: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  listUsers: {
    parameters: {
      query?: {
        role?: "student" | "admin";
        q?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              email: string;
              name: string | null;
              /** @enum {string} */
              role: "student" | "admin";
              indexNumber: string | null;
              active: boolean;
              createdAt: string;
              lastSignInAt: string | null;
              submission: {
                id: number;
                studentName: string;
              } | null;
            }[];
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  createAdmin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          email: string;
          passcode: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
            user: {
              id: number;
              email: string;
              name: string | null;
              /** @enum {string} */
              role: "student" | "admin";
              indexNumber: string | null;
              active: boolean;
              createdAt: string;
              lastSignInAt: string | null;
              submission: {
                id: number;
                studentName: string;
              } | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  deactivateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  reactivateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  resendSignInCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  listFailedMail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              to: string;
              subject: string;
              attempts: number;
              lastError: string | null;
              createdAt: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        before?: number;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              url: string;
              events: (
                | "submission.created"
                | "submission.stage_changed"
                | "document.received"
                | "document.returned"
                | "examiner.state_changed"
                | "outcome.released"
                | "thesis.published"
              )[];
              active: boolean;
              createdAt: string;
              pending: number;
              failed: number;
            }[];
            nextBefore: number | null;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          url: string;
          events: (
            | "submission.created"
            | "submission.stage_changed"
            | "document.received"
            | "document.returned"
            | "examiner.state_changed"
            | "outcome.released"
            | "thesis.published"
          )[];
          /** @default true */
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
            endpoint: {
              id: number;
              url: string;
              events: (
                | "submission.created"
                | "submission.stage_changed"
                | "document.received"
                | "document.returned"
                | "examiner.state_changed"
                | "outcome.released"
                | "thesis.published"
              )[];
              active: boolean;
              createdAt: string;
              pending: number;
              failed: number;
            };
            secret: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  enableWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: number;
            url: string;
            events: (
              | "submission.created"
              | "submission.stage_changed"
              | "document.received"
              | "document.returned"
              | "examiner.state_changed"
              | "outcome.released"
              | "thesis.published"
            )[];
            active: boolean;
            createdAt: string;
            pending: number;
            failed: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  disableWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: number;
            url: string;
            events: (
              | "submission.created"
              | "submission.stage_changed"
              | "document.received"
              | "document.returned"
              | "examiner.state_changed"
              | "outcome.released"
              | "thesis.published"
            )[];
            active: boolean;
            createdAt: string;
            pending: number;
            failed: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        before?: number;
        limit?: number;
      };
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              eventId: string;
              type: string;
              submissionId: number | null;
              /** @enum {string} */
              status: "pending" | "delivered" | "failed";
              attempts: number;
              nextAttemptAt: string | null;
              lastStatus: number | null;
              lastError: string | null;
              createdAt: string;
              redeliveryOf: number | null;
              attemptLog: {
                at: string;
                statusCode: number | null;
                error: string | null;
                durationMs: number;
              }[];
            }[];
            nextBefore: number | null;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
    };
  };
  redeliverWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
        deliveryId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: true;
            message: string;
            deliveryId: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getStats: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            totalSubmissions: number;
            totalUsers: number;
            addedThisMonth: number;
            perStage: {
              awaiting_review: number;
              sent_to_department: number;
              nominations_ready: number;
              sent_to_examiners: number;
              none: number;
            };
            perExaminerState: {
              internal: {
                awaiting: number;
                received: number;
                report_submitted: number;
                none: number;
              };
              external: {
                awaiting: number;
                received: number;
                report_submitted: number;
                none: number;
              };
            };
            overdueReports: {
              id: number;
              studentName: string;
              indexNumber: string;
              /** @enum {string} */
              examiner: "internal" | "external";
              /** @enum {string} */
              state: "awaiting" | "received" | "report_submitted";
              since: string;
              days: number;
            }[];
            overdueReportsTotal: number;
            reportOverdueDays: number;
            overdueExaminations: {
              examinationId: number;
              submissionId: number;
              indexNumber: string;
              studentName: string;
              /** @enum {string} */
              role: "internal" | "external";
              examinerName: string;
              dueOn: string;
              daysOverdue: number;
              remindersSent: number;
              lastReminderAt: string | null;
              lastOpenedAt: string | null;
              /** @enum {string} */
              state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
            }[];
            overdueExaminationsTotal: number;
            lateReports: {
              submissionId: number;
              studentName: string;
              indexNumber: string;
              /** @enum {string} */
              role: "internal" | "external";
              /** @enum {string} */
              state: "awaiting" | "received" | "report_submitted";
              /** @enum {string} */
              knownBy: "link_due_date" | "typed_state";
              dueOn: string;
              daysLate: number;
              since: string;
              examination: {
                examinationId: number;
                submissionId: number;
                indexNumber: string;
                studentName: string;
                /** @enum {string} */
                role: "internal" | "external";
                examinerName: string;
                dueOn: string;
                daysOverdue: number;
                remindersSent: number;
                lastReminderAt: string | null;
                lastOpenedAt: string | null;
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
              } | null;
            }[];
            lateReportsTotal: number;
            documentsWaiting: number;
            documentsReturned: number;
            perMonth: {
              month: string;
              count: number;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  getReportFigures: {
    parameters: {
      query?: {
        programme?: string;
        cohort?: number;
        from?: string;
        to?: string;
        compare?: "true" | "false";
        examinerPage?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            generatedAt: string;
            filters: {
              programme: string | null;
              cohort: number | null;
            };
            current: {
              from: string;
              to: string;
              stages: {
                /** @enum {string} */
                stage:
                  | "awaiting_review"
                  | "sent_to_department"
                  | "nominations_ready"
                  | "sent_to_examiners"
                  | "corrections";
                days: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                unknownHistory: number;
              }[];
              total: {
                days: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                unknownHistory: number;
              };
              turnaround: {
                /** @enum {string} */
                kind: "internal" | "external";
                legs: {
                  link_to_download: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  download_to_report: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  link_to_report: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                };
              }[];
              examiners: {
                items: {
                  examinerId: number;
                  name: string;
                  institution: string;
                  /** @enum {string} */
                  kind: "internal" | "external";
                  examined: number;
                  linkToReport: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  inProgress: number;
                  lateNow: number;
                }[];
                total: number;
                page: number;
                pageSize: number;
              };
              outcomes: {
                counts: {
                  /** @enum {string} */
                  decision:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  count: number;
                }[];
                total: number;
                correctionsToApproval: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                correctionsPending: number;
              };
              throughput: {
                month: string;
                /** @enum {string} */
                stage:
                  | "awaiting_review"
                  | "sent_to_department"
                  | "nominations_ready"
                  | "sent_to_examiners"
                  | "corrections";
                entered: number;
                left: number;
              }[];
            };
            previous: {
              from: string;
              to: string;
              stages: {
                /** @enum {string} */
                stage:
                  | "awaiting_review"
                  | "sent_to_department"
                  | "nominations_ready"
                  | "sent_to_examiners"
                  | "corrections";
                days: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                unknownHistory: number;
              }[];
              total: {
                days: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                unknownHistory: number;
              };
              turnaround: {
                /** @enum {string} */
                kind: "internal" | "external";
                legs: {
                  link_to_download: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  download_to_report: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  link_to_report: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                };
              }[];
              examiners: {
                items: {
                  examinerId: number;
                  name: string;
                  institution: string;
                  /** @enum {string} */
                  kind: "internal" | "external";
                  examined: number;
                  linkToReport: {
                    count: number;
                    median: number | null;
                    p75: number | null;
                    p90: number | null;
                  };
                  inProgress: number;
                  lateNow: number;
                }[];
                total: number;
                page: number;
                pageSize: number;
              };
              outcomes: {
                counts: {
                  /** @enum {string} */
                  decision:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  count: number;
                }[];
                total: number;
                correctionsToApproval: {
                  count: number;
                  median: number | null;
                  p75: number | null;
                  p90: number | null;
                };
                correctionsPending: number;
              };
              throughput: {
                month: string;
                /** @enum {string} */
                stage:
                  | "awaiting_review"
                  | "sent_to_department"
                  | "nominations_ready"
                  | "sent_to_examiners"
                  | "corrections";
                entered: number;
                left: number;
              }[];
            } | null;
            late: {
              items: {
                submissionId: number;
                studentName: string;
                indexNumber: string;
                programme: string;
                /** @enum {string} */
                role: "internal" | "external";
                examinerName: string | null;
                /** @enum {string} */
                state: "awaiting" | "received" | "report_submitted";
                /** @enum {string} */
                knownBy: "link_due_date" | "typed_state";
                dueOn: string;
                since: string;
                daysLate: number;
              }[];
              total: number;
              overdueDays: number;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  exportReportTable: {
    parameters: {
      query: {
        programme?: string;
        cohort?: number;
        from?: string;
        to?: string;
        compare?: "true" | "false";
        examinerPage?: number;
        format: "csv" | "xlsx";
        table?:
          | "stage-times"
          | "examiner-turnaround"
          | "examiners"
          | "outcomes"
          | "corrections"
          | "throughput-summary"
          | "throughput"
          | "late-reports";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  getDeanReportPdf: {
    parameters: {
      query?: {
        programme?: string;
        cohort?: number;
        from?: string;
        to?: string;
        compare?: "true" | "false";
        examinerPage?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  listSubmissionDocuments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              thesis: {
                title: string | null;
                abstract: string | null;
              };
              items: {
                /** @enum {string} */
                item:
                  | "thesis"
                  | "turnitinReport"
                  | "supervisorForm"
                  | "statementOfResult"
                  | "financialClearance";
                label: string;
                /** @enum {string} */
                state: "to_upload" | "with_school" | "accepted" | "returned";
                receivedOn: string | null;
                paperCopy: boolean;
                clearedBy?: {
                  system: string;
                  at: string;
                };
                canUpload: boolean;
                maxBytes: number;
                current: {
                  id: number;
                  /** @enum {string} */
                  item:
                    | "thesis"
                    | "turnitinReport"
                    | "supervisorForm"
                    | "statementOfResult"
                    | "financialClearance";
                  version: number;
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  reviewState: "pending" | "accepted" | "returned" | "superseded";
                  reviewedAt: string | null;
                  returnReason: string | null;
                  href: string;
                } | null;
                earlier: {
                  id: number;
                  /** @enum {string} */
                  item:
                    | "thesis"
                    | "turnitinReport"
                    | "supervisorForm"
                    | "statementOfResult"
                    | "financialClearance";
                  version: number;
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  reviewState: "pending" | "accepted" | "returned" | "superseded";
                  reviewedAt: string | null;
                  returnReason: string | null;
                  href: string;
                }[];
              }[];
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  saveThesisDetails: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          title: string;
          abstract: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              title: string | null;
              abstract: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  uploadDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
        item:
          | "thesis"
          | "turnitinReport"
          | "supervisorForm"
          | "statementOfResult"
          | "financialClearance";
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              /** @enum {string} */
              item:
                | "thesis"
                | "turnitinReport"
                | "supervisorForm"
                | "statementOfResult"
                | "financialClearance";
              version: number;
              fileName: string;
              sizeBytes: number;
              pageCount: number;
              hasJavaScript: boolean;
              hasEmbeddedFiles: boolean;
              uploadedAt: string;
              /** @enum {string} */
              reviewState: "pending" | "accepted" | "returned" | "superseded";
              reviewedAt: string | null;
              returnReason: string | null;
              href: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  getDocumentFile: {
    parameters: {
      query?: {
        /** @description 1: as an attachment rather than inline */
        download?: "0" | "1";
      };
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as the answer's body */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/pdf": string;
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  acceptDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              /** @enum {string} */
              item:
                | "thesis"
                | "turnitinReport"
                | "supervisorForm"
                | "statementOfResult"
                | "financialClearance";
              version: number;
              fileName: string;
              sizeBytes: number;
              pageCount: number;
              hasJavaScript: boolean;
              hasEmbeddedFiles: boolean;
              uploadedAt: string;
              /** @enum {string} */
              reviewState: "pending" | "accepted" | "returned" | "superseded";
              reviewedAt: string | null;
              returnReason: string | null;
              href: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  returnDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          reason: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              /** @enum {string} */
              item:
                | "thesis"
                | "turnitinReport"
                | "supervisorForm"
                | "statementOfResult"
                | "financialClearance";
              version: number;
              fileName: string;
              sizeBytes: number;
              pageCount: number;
              hasJavaScript: boolean;
              hasEmbeddedFiles: boolean;
              uploadedAt: string;
              /** @enum {string} */
              reviewState: "pending" | "accepted" | "returned" | "superseded";
              reviewedAt: string | null;
              returnReason: string | null;
              href: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  downloadSubmissionDocuments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as the answer's body */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/zip": string;
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  listExaminers: {
    parameters: {
      query?: {
        q?: string;
        kind?: "internal" | "external";
        active?: "true" | "false" | "all";
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              name: string;
              email: string;
              institution: string;
              /** @enum {string} */
              kind: "internal" | "external";
              active: boolean;
              openExaminations: number;
              createdAt: string;
              updatedAt: string;
            }[];
            total: number;
            page: number;
            pageSize: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  createExaminer: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          email: string;
          institution: string;
          /** @enum {string} */
          kind: "internal" | "external";
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              email: string;
              institution: string;
              /** @enum {string} */
              kind: "internal" | "external";
              active: boolean;
              openExaminations: number;
              createdAt: string;
              updatedAt: string;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  updateExaminer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name?: string;
          email?: string;
          institution?: string;
          /** @enum {string} */
          kind?: "internal" | "external";
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              email: string;
              institution: string;
              /** @enum {string} */
              kind: "internal" | "external";
              active: boolean;
              openExaminations: number;
              createdAt: string;
              updatedAt: string;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getExamination: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      429: components["responses"]["RateLimited"];
    };
  };
  nominateExaminer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
        role: "internal" | "external";
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          examinerId: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  sendToExaminers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          roles?: ("internal" | "external")[];
          confirmOutOfOrder?: boolean;
        } | null;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                /** @enum {boolean} */
                success: false;
                /** @enum {string} */
                code: "confirmation_required";
                message: string;
                moves: {
                  submissionId: number;
                  /** @enum {string} */
                  field: "sgsStage" | "internalExaminer" | "externalExaminer";
                  from: string | null;
                  to: string | null;
                  /** @enum {string} */
                  kind: "skip" | "reverse";
                }[];
              }
            | {
                /** @enum {boolean} */
                success: false;
                code: string;
                message: string;
                fields?: {
                  field: string;
                  message: string;
                }[];
              };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  revokeExaminerLink: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  changeExaminationDueDate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          dueOn: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getExaminerReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as the answer's body */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/pdf": string;
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  releaseOutcome: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
          corrections?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  approveCorrections: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              indexNumber: string;
              internal: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              external: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              } | null;
              replaced: {
                id: number;
                /** @enum {string} */
                role: "internal" | "external";
                /** @enum {string} */
                state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
                examiner: {
                  id: number;
                  name: string;
                  email: string;
                  institution: string;
                };
                nominatedAt: string;
                sentAt: string | null;
                dueOn: string | null;
                linkExpiresAt: string | null;
                linkRevokedAt: string | null;
                receivedAt: string | null;
                lastOpenedAt: string | null;
                report: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  hasJavaScript: boolean;
                  hasEmbeddedFiles: boolean;
                  uploadedAt: string;
                  /** @enum {string} */
                  recommendation:
                    | "pass"
                    | "minor_corrections"
                    | "major_corrections"
                    | "resubmit"
                    | "fail";
                  note: string | null;
                  href: string;
                } | null;
                reminders: {
                  sentAt: string;
                  offsetDays: number | null;
                  manual: boolean;
                }[];
                replacedAt: string | null;
              }[];
              canSend: boolean;
              sendBlockedReason: string | null;
              canReleaseOutcome: boolean;
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedAt: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedAt: string | null;
              } | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getStudentExamination: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              internal: {
                sentOn: string | null;
                reportReceivedOn: string | null;
              };
              external: {
                sentOn: string | null;
                reportReceivedOn: string | null;
              };
              outcome: {
                /** @enum {string} */
                decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
                label: string;
                corrections: string | null;
                releasedOn: string;
                /** @enum {string} */
                correctionState: "not_needed" | "to_upload" | "to_confirm" | "approved";
                correctionsApprovedOn: string | null;
              } | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  getExaminerAssignment: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              examinerName: string;
              /** @enum {string} */
              role: "internal" | "external";
              thesis: {
                title: string | null;
                abstract: string | null;
                programme: string;
                file: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  uploadedAt: string;
                } | null;
              };
              dueOn: string | null;
              /** @enum {string} */
              state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
              receivedAt: string | null;
              report: {
                fileName: string;
                uploadedAt: string;
                /** @enum {string} */
                recommendation:
                  | "pass"
                  | "minor_corrections"
                  | "major_corrections"
                  | "resubmit"
                  | "fail";
              } | null;
              corrections: {
                requested: string | null;
                /** @enum {string} */
                state: "not_needed" | "to_upload" | "to_confirm" | "approved";
                approvedAt: string | null;
              } | null;
              done: boolean;
              linkExpiresAt: string;
              schoolContact: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      /** @description Default Response */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      429: components["responses"]["RateLimited"];
    };
  };
  downloadExaminerThesis: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, as the answer's body */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/pdf": string;
        };
      };
      401: components["responses"]["Unauthenticated"];
      429: components["responses"]["RateLimited"];
    };
  };
  uploadExaminerReport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              examinerName: string;
              /** @enum {string} */
              role: "internal" | "external";
              thesis: {
                title: string | null;
                abstract: string | null;
                programme: string;
                file: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  uploadedAt: string;
                } | null;
              };
              dueOn: string | null;
              /** @enum {string} */
              state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
              receivedAt: string | null;
              report: {
                fileName: string;
                uploadedAt: string;
                /** @enum {string} */
                recommendation:
                  | "pass"
                  | "minor_corrections"
                  | "major_corrections"
                  | "resubmit"
                  | "fail";
              } | null;
              corrections: {
                requested: string | null;
                /** @enum {string} */
                state: "not_needed" | "to_upload" | "to_confirm" | "approved";
                approvedAt: string | null;
              } | null;
              done: boolean;
              linkExpiresAt: string;
              schoolContact: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      /** @description Default Response */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  examinerApproveCorrections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          note?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              examinerName: string;
              /** @enum {string} */
              role: "internal" | "external";
              thesis: {
                title: string | null;
                abstract: string | null;
                programme: string;
                file: {
                  fileName: string;
                  sizeBytes: number;
                  pageCount: number;
                  uploadedAt: string;
                } | null;
              };
              dueOn: string | null;
              /** @enum {string} */
              state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
              receivedAt: string | null;
              report: {
                fileName: string;
                uploadedAt: string;
                /** @enum {string} */
                recommendation:
                  | "pass"
                  | "minor_corrections"
                  | "major_corrections"
                  | "resubmit"
                  | "fail";
              } | null;
              corrections: {
                requested: string | null;
                /** @enum {string} */
                state: "not_needed" | "to_upload" | "to_confirm" | "approved";
                approvedAt: string | null;
              } | null;
              done: boolean;
              linkExpiresAt: string;
              schoolContact: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      /** @description Default Response */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            /** @enum {string} */
            code: "link_refused";
            /** @enum {string} */
            reason: "invalid" | "expired" | "revoked" | "replaced";
            message: string;
            schoolContact: string | null;
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  sendExaminerReminder: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              sentAt: string;
              offsetDays: number | null;
              manual: boolean;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getSsoOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              providers: {
                /** @enum {string} */
                provider: "oidc" | "saml";
                label: string;
                startHref: string;
              }[];
              /** @enum {string} */
              localSignIn: "on" | "admins-only" | "off";
            };
          };
        };
      };
    };
  };
  getStudentPublication: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
    };
  };
  saveStudentPublication: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          keywords: string[];
          language: string;
          supervisors: {
            name: string;
            orcid?: string | null;
          }[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  acceptPublicationLicence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          version: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  choosePublicationEmbargo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          choice: "none" | "6m" | "1y" | "2y" | "sensitive";
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  getCurrentLicence: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              version: number;
              text: string;
              createdAt: string;
            } | null;
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  getLicenceVersionText: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              version: number;
              text: string;
              createdAt: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
    };
  };
  getAdminPublication: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      429: components["responses"]["RateLimited"];
    };
  };
  correctPublication: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  decidePublicationEmbargo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          decision: "approve" | "refuse";
          until?: string;
          note?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  withdrawPublication: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          reason: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              submissionId: number;
              /** @enum {string} */
              state:
                | "not_final"
                | "in_preparation"
                | "awaiting_approval"
                | "published"
                | "withdrawn";
              final: boolean;
              title: string | null;
              abstract: string | null;
              keywords: string[];
              language: string | null;
              degree: {
                id: number;
                name: string;
                abbreviation: string;
                /** @enum {string} */
                level: "masters" | "doctoral";
                active: boolean;
              } | null;
              department: string | null;
              programme: string;
              supervisors: {
                name: string;
                orcid: string | null;
              }[];
              examinationDate: string | null;
              awardDate: string | null;
              confirmedAt: string | null;
              licence: {
                version: number;
                acceptedAt: string;
                current: boolean;
              } | null;
              embargo: {
                /** @enum {string} */
                choice: "none" | "6m" | "1y" | "2y" | "sensitive";
                reason: string | null;
                /** @enum {string|null} */
                approval: "pending" | "approved" | "refused" | null;
                decisionNote: string | null;
                until: string | null;
              } | null;
              filesPublic: boolean;
              publishedAt: string | null;
              withdrawn: {
                at: string;
                reason: string;
              } | null;
              handle: string | null;
              locked: boolean;
              missing: string[];
              publicPath: string | null;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  listLicenceVersions: {
    parameters: {
      query?: {
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              version: number;
              text: string;
              createdAt: string;
            }[];
            page: number;
            pageSize: number;
            total: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  createLicenceVersion: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          text: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              version: number;
              text: string;
              createdAt: string;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  getLicenceVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              version: number;
              text: string;
              createdAt: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      429: components["responses"]["RateLimited"];
    };
  };
  listDegrees: {
    parameters: {
      query?: {
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              abbreviation: string;
              /** @enum {string} */
              level: "masters" | "doctoral";
              active: boolean;
            }[];
            page: number;
            pageSize: number;
            total: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  createDegree: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          abbreviation: string;
          /** @enum {string} */
          level: "masters" | "doctoral";
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              abbreviation: string;
              /** @enum {string} */
              level: "masters" | "doctoral";
              active: boolean;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  updateDegree: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name?: string;
          abbreviation?: string;
          /** @enum {string} */
          level?: "masters" | "doctoral";
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              abbreviation: string;
              /** @enum {string} */
              level: "masters" | "doctoral";
              active: boolean;
            };
          };
        };
      };
      /** @description Default Response */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      401: components["responses"]["Unauthenticated"];
      /** @description Default Response */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
    };
  };
  exportPublishedThesis: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        format: "saf" | "marcxml" | "etdms" | "dc";
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  exportPublishedTheses: {
    parameters: {
      query: {
        /** @description First award date in the export (YYYY-MM-DD) */
        awardFrom: string;
        /** @description Last award date in the export (YYYY-MM-DD), inclusive */
        awardTo: string;
      };
      header?: never;
      path: {
        format: "saf" | "marcxml" | "etdms" | "dc";
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  getThesisDeposit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              configured: boolean;
              deposit: {
                indexNumber: string;
                studentName: string;
                /** @enum {string} */
                state: "queued" | "depositing" | "deposited" | "failed";
                attempts: number;
                nextAttemptAt: string | null;
                lastError: string | null;
                handle: string | null;
                requestedAt: string;
                depositedAt: string | null;
              } | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
    };
  };
  depositThesis: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        indexNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              configured: boolean;
              deposit: {
                indexNumber: string;
                studentName: string;
                /** @enum {string} */
                state: "queued" | "depositing" | "deposited" | "failed";
                attempts: number;
                nextAttemptAt: string | null;
                lastError: string | null;
                handle: string | null;
                requestedAt: string;
                depositedAt: string | null;
              } | null;
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  listDeposits: {
    parameters: {
      query?: {
        state?: "queued" | "depositing" | "deposited" | "failed";
        after?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              indexNumber: string;
              studentName: string;
              /** @enum {string} */
              state: "queued" | "depositing" | "deposited" | "failed";
              attempts: number;
              nextAttemptAt: string | null;
              lastError: string | null;
              handle: string | null;
              requestedAt: string;
              depositedAt: string | null;
              id: number;
            }[];
            next: number | null;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
    };
  };
  depositTheses: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          indexNumbers: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              queued: {
                indexNumber: string;
                studentName: string;
                /** @enum {string} */
                state: "queued" | "depositing" | "deposited" | "failed";
                attempts: number;
                nextAttemptAt: string | null;
                lastError: string | null;
                handle: string | null;
                requestedAt: string;
                depositedAt: string | null;
              }[];
              refused: {
                indexNumber: string;
                reason: string;
              }[];
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      /** @description Default Response */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {boolean} */
            success: false;
            code: string;
            message: string;
            fields?: {
              field: string;
              message: string;
            }[];
          };
        };
      };
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  listApiTokens: {
    parameters: {
      query?: {
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              name: string;
              prefix: string;
              scopes: (
                | "submissions:read"
                | "submissions:write"
                | "documents:read"
                | "examinations:read"
                | "stats:read"
                | "clearance:write"
              )[];
              createdAt: string;
              createdBy: string | null;
              expiresAt: string;
              revokedAt: string | null;
              lastUsedAt: string | null;
              lastUsedFrom: string | null;
              /** @enum {string} */
              state: "active" | "expired" | "revoked";
            }[];
            total: number;
            page: number;
            pageSize: number;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
    };
  };
  createApiToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          scopes: (
            | "submissions:read"
            | "submissions:write"
            | "documents:read"
            | "examinations:read"
            | "stats:read"
            | "clearance:write"
          )[];
          expiresInDays: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              prefix: string;
              scopes: (
                | "submissions:read"
                | "submissions:write"
                | "documents:read"
                | "examinations:read"
                | "stats:read"
                | "clearance:write"
              )[];
              createdAt: string;
              createdBy: string | null;
              expiresAt: string;
              revokedAt: string | null;
              lastUsedAt: string | null;
              lastUsedFrom: string | null;
              /** @enum {string} */
              state: "active" | "expired" | "revoked";
            };
            token: string;
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
  revokeApiToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              id: number;
              name: string;
              prefix: string;
              scopes: (
                | "submissions:read"
                | "submissions:write"
                | "documents:read"
                | "examinations:read"
                | "stats:read"
                | "clearance:write"
              )[];
              createdAt: string;
              createdBy: string | null;
              expiresAt: string;
              revokedAt: string | null;
              lastUsedAt: string | null;
              lastUsedFrom: string | null;
              /** @enum {string} */
              state: "active" | "expired" | "revoked";
            };
          };
        };
      };
      400: components["responses"]["ValidationFailed"];
      401: components["responses"]["Unauthenticated"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
    };
  };
}
