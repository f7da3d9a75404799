import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { staff } from '../org/org.schema.ts';
import { session } from './auth.schema.ts';

/** Sets a new password for the built-in admin and ends its sessions (server command only). */
export async function resetAdminPassword(db: Db, password: string): Promise<void> {
  const updated = await db
    .update(staff)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(staff.id, ADMIN_STAFF_ID))
    .returning({ id: staff.id });
  if (updated.length === 0)
    throw new Error('The built-in admin account does not exist yet: start the server once.');
  await db.update(session).set({ revokedAt: new Date() }).where(eq(session.staffId, ADMIN_STAFF_ID));
}
