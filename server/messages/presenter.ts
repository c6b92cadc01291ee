import type { Message } from "../../common/submissions-api.js";
import type { StoredMessage } from "./repository.js";

export function presentMessage(m: StoredMessage): Message {
  return {
    id: m.id,
    title: m.title,
    body: m.body,
    createdAt: m.createdAt,
    read: m.read,
    broadcast: m.submissionId === null,
  };
}
