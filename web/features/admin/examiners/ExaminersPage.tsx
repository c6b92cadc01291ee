/** The school's examiner list (issue 9). */
export function ExaminersPage() {
  return <h1>Examiners</h1>;
}
