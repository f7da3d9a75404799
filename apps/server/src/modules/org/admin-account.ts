import { ADMIN_ROLE_ID, ADMIN_STAFF_ID } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { generatePassword, hashPassword } from '../../lib/password-hash.ts';
import { DEFAULT_STATION } from '../../lib/station.ts';
import { role, staff, staffRole, station } from './org.schema.ts';

/**
 * First start: creates the default station, role `admin` and the built-in `admin` account. Its password
 * is ADMIN_PASSWORD or a generated one, returned so the caller can show it once. Later starts change
 * nothing (the password is reset only by the reset-admin-password command).
 */
export async function ensureBuiltInAccounts(
  db: Db,
  adminPassword: string | undefined,
): Promise<{ created: boolean; generatedPassword: string | null }> {
  await db.insert(station).values(DEFAULT_STATION).onConflictDoNothing();
  await db
    .insert(role)
    .values({
      id: ADMIN_ROLE_ID,
      name: 'admin',
      description: 'Built-in administrator role: every permission',
    })
    .onConflictDoNothing();
  const [existing] = await db.select({ id: staff.id }).from(staff).where(eq(staff.id, ADMIN_STAFF_ID));
  if (existing) return { created: false, generatedPassword: null };
  const password = adminPassword ?? generatePassword();
  await db.transaction(async (tx) => {
    await tx.insert(staff).values({
      id: ADMIN_STAFF_ID,
      name: 'admin',
      passwordHash: await hashPassword(password),
      staffType: 1,
      status: 'activated',
      mustChangePassword: false,
    });
    await tx.insert(staffRole).values({ staffId: ADMIN_STAFF_ID, roleId: ADMIN_ROLE_ID });
  });
  return { created: true, generatedPassword: adminPassword ? null : password };
}
