import { MIN_ADMIN_PASSWORD_LENGTH } from "../config.js";
import { nowIso, type Db } from "../db/database.js";
import { isUniqueViolation } from "../db/dialect.js";
import { conflict, validationError } from "../errors.js";
import { recordAudit } from "./audit.js";
import { hashSecret } from "./passwords.js";
import { insertAccount } from "./repository.js";

export interface NewAdmin {
  name: string | null;
  email: string;
  password: string;
}

/** Who created the administrator: null for the bootstrap and the CLI. */
export interface AdminCreator {
  userId: number;
  ip: string | null;
}

/** Creates an administrator; used by the start-up bootstrap, the CLI and the new_user_entry form. */
export async function createAdmin(
  db: Db,
  admin: NewAdmin,
  creator: AdminCreator | null = null,
): Promise<number> {
  const email = admin.email.trim().toLowerCase();
  if (admin.password.length < MIN_ADMIN_PASSWORD_LENGTH) {
    throw validationError("password", `must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`);
  }
  const passwordHash = await hashSecret(admin.password);
  const at = nowIso();
  try {
    return await db.transaction().execute(async (trx) => {
      const id = await insertAccount(
        trx,
        { email, name: admin.name?.trim() || null, role: "admin", passwordHash },
        new Date(at),
      );
      await recordAudit(
        trx,
        {
          event: "admin.created",
          actorUserId: creator?.userId ?? null,
          subject: email,
          ip: creator?.ip ?? null,
          details: { via: creator ? "administrator" : "bootstrap or CLI" },
        },
        new Date(at),
      );
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("An account with this email already exists.", [
        { field: "email", message: "is already in use" },
      ]);
    }
    throw error;
  }
}

export async function countAdmins(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select(["id", "role"])
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}
