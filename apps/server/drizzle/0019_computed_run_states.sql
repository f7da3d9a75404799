CREATE TABLE "device_damage_report" (
	"device_id" text NOT NULL,
	"message_id" text NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_runtime" ADD COLUMN "reported_run_state" text;--> statement-breakpoint
ALTER TABLE "device_runtime" ADD COLUMN "door_open_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_runtime" ADD COLUMN "damage_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_runtime" ADD COLUMN "damage_recount_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_damage_report" ADD CONSTRAINT "device_damage_report_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_damage_report_key" ON "device_damage_report" USING btree ("device_id","message_id");--> statement-breakpoint
CREATE INDEX "device_damage_report_time_idx" ON "device_damage_report" USING btree ("reported_at");--> statement-breakpoint
-- What the locks reported so far is their own run state; a door open now has stood open at least since the last report.
UPDATE "device_runtime" SET "reported_run_state" = "run_state", "door_open_since" = CASE WHEN "door_state" = 'open' THEN "last_collect_time" END;
