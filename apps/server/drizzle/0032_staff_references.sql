-- Keys and devices of staff members deleted before now name nobody: the references are cleared first.
UPDATE "device" SET "staff_id" = NULL
  WHERE "staff_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "staff" WHERE "staff"."id" = "device"."staff_id");--> statement-breakpoint
UPDATE "lock_key" SET "staff_id" = NULL
  WHERE "staff_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "staff" WHERE "staff"."id" = "lock_key"."staff_id");--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_key" ADD CONSTRAINT "lock_key_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE restrict ON UPDATE no action;
