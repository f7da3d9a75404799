CREATE TABLE "device_credential" (
	"device_id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"device_id" text NOT NULL,
	"message_id" text NOT NULL,
	"protocol" text NOT NULL,
	"report_time" timestamp with time zone NOT NULL,
	"receive_time" timestamp with time zone NOT NULL,
	"raw" text NOT NULL,
	"content" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_runtime" (
	"device_id" text PRIMARY KEY NOT NULL,
	"lock_state" text,
	"door_state" text,
	"online" boolean DEFAULT false NOT NULL,
	"battery" real,
	"last_collect_time" timestamp with time zone,
	"offline_since" timestamp with time zone,
	"run_state" text,
	"rssi" real,
	"dev_eui" text,
	"props" jsonb,
	"last_message_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_credential" ADD CONSTRAINT "device_credential_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_runtime" ADD CONSTRAINT "device_runtime_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_history_message_key" ON "device_history" USING btree ("device_id","message_id");--> statement-breakpoint
CREATE INDEX "device_history_report_time_idx" ON "device_history" USING btree ("report_time","id");--> statement-breakpoint
CREATE INDEX "device_history_device_time_idx" ON "device_history" USING btree ("device_id","report_time");--> statement-breakpoint
CREATE INDEX "device_runtime_online_idx" ON "device_runtime" USING btree ("online","last_collect_time");