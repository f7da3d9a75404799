ALTER TABLE "lock_task" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
-- Tasks approved before the column existed: every state from an approval on, and a New task back from a
-- rejected change whose records or keys show that it was in force.
UPDATE "lock_task" SET "approved_at" = coalesce("audited_at", "updated_at")
WHERE "state" IN ('None', 'Execute', 'Update', 'Finish', 'ForceEnd')
   OR ("state" = 'New' AND (
        EXISTS (SELECT 1 FROM "operation_record" r WHERE r."task_id" = "lock_task"."id")
     OR EXISTS (SELECT 1 FROM "lock_task_item" i WHERE i."task_id" = "lock_task"."id" AND i."to_key_time" IS NOT NULL)));
