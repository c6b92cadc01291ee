import type { Submission } from "../../common/submission.js";
import type {
  SubmissionDto,
  SubmissionEvent,
  SubmissionListResponse,
} from "../../common/submissions-api.js";
import type { StoredSubmissionEvent, SubmissionPage } from "./repository.js";

/**
 * The one place that shapes submissions for the API. `documentsToReview` (uploads whose current
 * version waits for review) is counted by the caller for the rows it answers with
 * (countDocumentsToReview), one query for a whole page.
 */
export function presentSubmission(s: Submission, documentsToReview: number): SubmissionDto {
  return {
    id: s.id,
    studentName: s.studentName,
    indexNumber: s.indexNumber,
    programme: s.programme,
    contact: s.contact,
    studentEmail: s.studentEmail,
    documents: {
      thesis: { ...s.documents.thesis },
      turnitinReport: { ...s.documents.turnitinReport },
      supervisorForm: { ...s.documents.supervisorForm },
      statementOfResult: { ...s.documents.statementOfResult },
      financialClearance: { ...s.documents.financialClearance },
    },
    sgsStage: s.sgsStage,
    internalExaminer: s.internalExaminer,
    externalExaminer: s.externalExaminer,
    thesisStatus: s.thesisStatus,
    effectiveDate: s.effectiveDate,
    thesisTitle: s.thesisTitle,
    thesisAbstract: s.thesisAbstract,
    documentsToReview,
    ...(s.documents.financialClearance.submitted && s.financialClearanceBy
      ? { financialClearanceBy: { ...s.financialClearanceBy } }
      : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}

export function presentSubmissionPage(
  result: SubmissionPage,
  page: number,
  pageSize: number,
): SubmissionListResponse {
  return {
    items: result.items.map((s) => presentSubmission(s, result.documentsToReview.get(s.id) ?? 0)),
    total: result.total,
    totalCapped: result.totalCapped,
    page,
    pageSize,
  };
}

export function presentEvent(e: StoredSubmissionEvent): SubmissionEvent {
  return {
    id: e.id,
    at: e.at,
    actor: e.actor,
    field: e.field,
    from: e.from,
    to: e.to,
    kind: e.kind,
    confirmedOutOfOrder: e.confirmedOutOfOrder,
  };
}
