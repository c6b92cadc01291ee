/**
 * The due date in words, as the design asks ("due in 12 days", "due today", "3 days overdue"),
 * counted in calendar days from the examiner's own today.
 */
export function dueInWords(dueOn: string, today: Date = new Date()): string | null {
  const due = Date.parse(`${dueOn}T00:00:00Z`);
  if (Number.isNaN(due)) return null;
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const days = Math.round((due - now) / 86_400_000);
  if (days === 0) return "due today";
  const count = `${Math.abs(days)} ${Math.abs(days) === 1 ? "day" : "days"}`;
  return days > 0 ? `due in ${count}` : `${count} overdue`;
}
