ALTER TABLE "order_repairs" ADD COLUMN "line_item_id" text;--> statement-breakpoint
ALTER TABLE "order_repairs" ADD COLUMN "cancel_requested_at" timestamp (3) with time zone;