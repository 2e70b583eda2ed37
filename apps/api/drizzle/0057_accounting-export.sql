-- Indexes for the accounting export (issue 31): invoices by issue date, payments by date, each first by account.
CREATE INDEX "invoice_issued_idx" ON "invoice" USING btree ("account_id","issued_on","series","year","number");--> statement-breakpoint
CREATE INDEX "order_payment_created_idx" ON "order_payment" USING btree ("account_id","created_at");