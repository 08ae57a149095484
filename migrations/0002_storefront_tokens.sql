CREATE TABLE "storefront_tokens" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"allowed_origins" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "storefront_tokens_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
ALTER TABLE "storefront_tokens" ADD CONSTRAINT "storefront_tokens_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "storefront_tokens_shop_hash_key" ON "storefront_tokens" USING btree ("shop_id","token_hash");