CREATE TABLE "alarm_board_link" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"station_id" text NOT NULL,
	"name" text NOT NULL,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text
);
--> statement-breakpoint
CREATE TABLE "alarm_board_session" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_addr" text
);
--> statement-breakpoint
ALTER TABLE "alarm_board_link" ADD CONSTRAINT "alarm_board_link_station_id_station_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."station"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_board_session" ADD CONSTRAINT "alarm_board_session_link_id_alarm_board_link_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."alarm_board_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_board_link_created_idx" ON "alarm_board_link" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "alarm_board_link_code_idx" ON "alarm_board_link" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "alarm_board_session_link_idx" ON "alarm_board_session" USING btree ("link_id");