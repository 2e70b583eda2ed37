-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- Whether an organisation's plan has the `partners` feature: a partner sale needs it on both sides
-- (the supplier's and the reseller's), whatever the channel. Called as the caller: a tenant reads
-- its own plan only (row-level security); the server's connection and the functions below, any.
CREATE OR REPLACE FUNCTION tourdesk_has_partners(p_account uuid) RETURNS boolean
  LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT 'partners' = ANY (t.features) FROM base_account a JOIN subscription_tier t ON t.id = a.subscription_tier_id WHERE a.id = p_account), false)
$$;

-- Whether each side of a partnership has the partners feature in its plan (tourdesk_has_partners):
-- what sharedOffer() checks at every partner sale, in the supplier's tenant. The reseller's plan is
-- hidden from the supplier's tenant by row-level security, so it runs as its owner (SECURITY
-- DEFINER) and answers only for a partnership the calling tenant is a side of.
CREATE OR REPLACE FUNCTION tourdesk_partnership_plans(p_partnership uuid)
  RETURNS TABLE (supplier boolean, reseller boolean)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT tourdesk_has_partners(p.supplier_account_id), tourdesk_has_partners(p.reseller_account_id)
  FROM partnership p
  WHERE p.id = p_partnership AND app_current_account() IN (p.supplier_account_id, p.reseller_account_id)
$$;
REVOKE ALL ON FUNCTION tourdesk_partnership_plans(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tourdesk_partnership_plans(uuid) TO tourdesk_server, tourdesk_app;

-- What a store sells now, in its order: its organisation's own Active offers it lists, and the
-- Active offers of its partners it lists, while their partnership is Active, still shares the offer,
-- was made in the store's currency, and both sides' plans have partners (tourdesk_has_partners). Each with the organisation that sells it (the one whose
-- slots, prices and books it uses) and the partnership it is resold under. The one definition the
-- public web store reads (publicStore's offers, the offers list, what a cart may hold); it sees
-- across organisations, so it is called only on the server's connection, filtered by store.
CREATE OR REPLACE FUNCTION tourdesk_store_offers(p_store uuid)
  RETURNS TABLE (experience_id uuid, seller_account_id uuid, partnership_id uuid, "position" int, title text)
  LANGUAGE sql STABLE AS $$
  SELECT se.experience_id, x.account_id, se.partnership_id, se.position, x.title
  FROM store_experience se
  JOIN store s ON s.id = se.store_id AND s.account_id = se.account_id
  JOIN experience x ON x.id = se.experience_id AND x.status = 'Active'
  LEFT JOIN partnership p ON p.id = se.partnership_id
  WHERE se.store_id = p_store
    AND ((se.partnership_id IS NULL AND x.account_id = se.account_id)
      OR (p.status = 'Active' AND p.reseller_account_id = se.account_id AND p.supplier_account_id = x.account_id
          AND p.currency = s.currency
          AND tourdesk_has_partners(p.supplier_account_id) AND tourdesk_has_partners(p.reseller_account_id)
          AND EXISTS (SELECT 1 FROM partnership_experience pe WHERE pe.partnership_id = p.id AND pe.experience_id = x.id)))
  ORDER BY se.position, x.title
$$;

-- The stores of the calling organisation's resellers that sell its offers now: active stores of a
-- reseller under an Active partnership that list at least one offer under it. What a supplier's QR
-- code may lead to (target 'partner_store'): its name, address and partner, nothing else. It reads
-- the resellers' stores, which row-level security hides from the supplier's tenant, so it runs as
-- its owner (SECURITY DEFINER) and answers only for app_current_account(), the tenant calling it.
CREATE OR REPLACE FUNCTION tourdesk_partner_stores()
  RETURNS TABLE (store_id uuid, name text, slug text, subdomain text, partner text, partnership_id uuid)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT s.id, s.name, s.slug, a.subdomain, a.name, p.id
  FROM partnership p
  JOIN store s ON s.account_id = p.reseller_account_id AND s.active
  JOIN base_account a ON a.id = p.reseller_account_id
  WHERE p.supplier_account_id = app_current_account() AND p.status = 'Active'
    AND EXISTS (SELECT 1 FROM store_experience se WHERE se.store_id = s.id AND se.account_id = s.account_id AND se.partnership_id = p.id)
  ORDER BY a.name, s.name
$$;
REVOKE ALL ON FUNCTION tourdesk_partner_stores() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tourdesk_partner_stores() TO tourdesk_server, tourdesk_app;
