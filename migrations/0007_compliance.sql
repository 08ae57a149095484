CREATE TABLE "data_requests" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"customer_id" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"export" jsonb NOT NULL,
	CONSTRAINT "data_requests_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_requests_shop_received_idx" ON "data_requests" USING btree ("shop_id","received_at");--> statement-breakpoint
CREATE INDEX "orders_shop_customer_idx" ON "orders" USING btree ("shop_id","customer_id") WHERE customer_id is not null;--> statement-breakpoint
CREATE INDEX "storefront_events_shop_customer_idx" ON "storefront_events" USING btree ("shop_id",("context" ->> 'customerId')) WHERE "storefront_events"."context" ? 'customerId';