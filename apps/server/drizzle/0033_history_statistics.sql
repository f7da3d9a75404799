-- Device history is the largest table and only grows between retention passes. ANALYZE reads a sample of
-- 300 rows per unit of the statistics target: at the default target (100) that is 30 000 rows from as many
-- pages, about 0.2 s on the embedded engine, whose upkeep runs on the thread every query waits for. A target
-- of 10 (3 000 rows, about 20 ms there) still tells the planner the table's size and its spread of devices
-- and times, which is all its queries (by device and time, by time) need.
ALTER TABLE "device_history" ALTER COLUMN "id" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "device_id" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "message_id" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "protocol" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "report_time" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "receive_time" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "raw" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "device_history" ALTER COLUMN "content" SET STATISTICS 10;
