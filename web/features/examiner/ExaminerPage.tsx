/** The examiner's page, opened from the mailed link `/examiner#<token>` (issue 9). */
export function ExaminerPage() {
  return <h1>Examination</h1>;
}
