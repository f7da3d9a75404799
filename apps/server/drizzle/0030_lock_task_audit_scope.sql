ALTER TABLE "lock_task" ADD COLUMN "audit_scope" text DEFAULT 'any' NOT NULL;--> statement-breakpoint
-- Tasks written before the column: the scope their references still show (an auditor or a team deleted
-- before now cannot be told apart from none named).
UPDATE "lock_task" SET "audit_scope" = CASE
  WHEN "auditor_id" IS NOT NULL THEN 'person'
  WHEN "audit_dept_id" IS NOT NULL THEN 'team'
  ELSE 'any' END;
