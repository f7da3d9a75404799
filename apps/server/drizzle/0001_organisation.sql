CREATE TABLE "permission_grant" (
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"permission" text NOT NULL,
	CONSTRAINT "permission_grant_pk" PRIMARY KEY("subject_type","subject_id","permission")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sys_message" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"message_type" text NOT NULL,
	"title" text NOT NULL,
	"content" text,
	"name" text,
	"email" text,
	"staff_type" integer,
	"staff_id" text,
	"operated" integer DEFAULT 0 NOT NULL,
	"operator" text,
	"result" text,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"operated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_code" (
	"email" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
DROP TABLE "role_permission" CASCADE;--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sys_message_type_created_idx" ON "sys_message" USING btree ("message_type","created_at");