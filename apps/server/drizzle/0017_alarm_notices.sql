CREATE TABLE "alarm_notice" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"alarm_id" text NOT NULL,
	"occasion" text NOT NULL,
	"channel" text NOT NULL,
	"staff_id" text NOT NULL,
	"staff_name" text NOT NULL,
	"address" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alarm_notice_attempt" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"notice_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_notice" ADD CONSTRAINT "alarm_notice_alarm_id_device_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."device_alarm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notice_attempt" ADD CONSTRAINT "alarm_notice_attempt_notice_id_alarm_notice_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."alarm_notice"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_notice_due_idx" ON "alarm_notice" USING btree ("next_attempt_at") WHERE "alarm_notice"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "alarm_notice_alarm_idx" ON "alarm_notice" USING btree ("alarm_id","created_at");--> statement-breakpoint
CREATE INDEX "alarm_notice_attempt_notice_idx" ON "alarm_notice_attempt" USING btree ("notice_id","attempt");