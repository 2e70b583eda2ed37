/**
 * The back office's catalogs (apps/web), one domain per feature, in its languages
 * (BACK_OFFICE_LANGUAGES). The browser imports each domain's files itself (parsed at build time,
 * apps/web/vite-catalogs.ts), never this index: it is for the catalog check.
 */
import { de as accountingDe } from './accounting/de';
import { en as accountingEn } from './accounting/en';
import { de as authDe } from './auth/de';
import { en as authEn } from './auth/en';
import { de as bookingsDe } from './bookings/de';
import { en as bookingsEn } from './bookings/en';
import { de as capacityDe } from './capacity/de';
import { en as capacityEn } from './capacity/en';
import { de as checkInDe } from './check-in/de';
import { en as checkInEn } from './check-in/en';
import { de as commonDe } from './common/de';
import { en as commonEn } from './common/en';
import { de as customersDe } from './customers/de';
import { en as customersEn } from './customers/en';
import { de as dashboardDe } from './dashboard/de';
import { en as dashboardEn } from './dashboard/en';
import { de as dateFieldDe } from './date-field/de';
import { en as dateFieldEn } from './date-field/en';
import { de as giftVouchersDe } from './gift-vouchers/de';
import { en as giftVouchersEn } from './gift-vouchers/en';
import { de as experiencesDe } from './experiences/de';
import { en as experiencesEn } from './experiences/en';
import { de as inventoryDe } from './inventory/de';
import { en as inventoryEn } from './inventory/en';
import { de as manifestsDe } from './manifests/de';
import { en as manifestsEn } from './manifests/en';
import { de as offerEditorDe } from './offer-editor/de';
import { en as offerEditorEn } from './offer-editor/en';
import { de as offerSettingsDe } from './offer-settings/de';
import { en as offerSettingsEn } from './offer-settings/en';
import { de as ordersDe } from './orders/de';
import { en as ordersEn } from './orders/en';
import { de as organizationDe } from './organization/de';
import { en as organizationEn } from './organization/en';
import { de as partnersDe } from './partners/de';
import { en as partnersEn } from './partners/en';
import { de as paymentProvidersDe } from './payment-providers/de';
import { en as paymentProvidersEn } from './payment-providers/en';
import { de as pricingDe } from './pricing/de';
import { en as pricingEn } from './pricing/en';
import { de as profileDe } from './profile/de';
import { en as profileEn } from './profile/en';
import { de as qrCodesDe } from './qr-codes/de';
import { de as promoCodesDe } from './promo-codes/de';
import { en as promoCodesEn } from './promo-codes/en';
import { en as qrCodesEn } from './qr-codes/en';
import { de as resalesDe } from './resales/de';
import { en as resalesEn } from './resales/en';
import { de as shellDe } from './shell/de';
import { en as shellEn } from './shell/en';
import { de as storesDe } from './stores/de';
import { en as storesEn } from './stores/en';
import { de as subscriptionDe } from './subscription/de';
import { en as subscriptionEn } from './subscription/en';
import { de as teamDe } from './team/de';
import { en as teamEn } from './team/en';
import { de as webhooksDe } from './webhooks/de';
import { en as webhooksEn } from './webhooks/en';

export const BACKOFFICE_CATALOGS = {
  'backoffice/accounting': { en: accountingEn, de: accountingDe },
  'backoffice/auth': { en: authEn, de: authDe },
  'backoffice/bookings': { en: bookingsEn, de: bookingsDe },
  'backoffice/capacity': { en: capacityEn, de: capacityDe },
  'backoffice/check-in': { en: checkInEn, de: checkInDe },
  'backoffice/common': { en: commonEn, de: commonDe },
  'backoffice/customers': { en: customersEn, de: customersDe },
  'backoffice/dashboard': { en: dashboardEn, de: dashboardDe },
  'backoffice/date-field': { en: dateFieldEn, de: dateFieldDe },
  'backoffice/experiences': { en: experiencesEn, de: experiencesDe },
  'backoffice/gift-vouchers': { en: giftVouchersEn, de: giftVouchersDe },
  'backoffice/inventory': { en: inventoryEn, de: inventoryDe },
  'backoffice/manifests': { en: manifestsEn, de: manifestsDe },
  'backoffice/offer-editor': { en: offerEditorEn, de: offerEditorDe },
  'backoffice/offer-settings': { en: offerSettingsEn, de: offerSettingsDe },
  'backoffice/orders': { en: ordersEn, de: ordersDe },
  'backoffice/organization': { en: organizationEn, de: organizationDe },
  'backoffice/partners': { en: partnersEn, de: partnersDe },
  'backoffice/pricing': { en: pricingEn, de: pricingDe },
  'backoffice/payment-providers': { en: paymentProvidersEn, de: paymentProvidersDe },
  'backoffice/profile': { en: profileEn, de: profileDe },
  'backoffice/qr-codes': { en: qrCodesEn, de: qrCodesDe },
  'backoffice/promo-codes': { en: promoCodesEn, de: promoCodesDe },
  'backoffice/resales': { en: resalesEn, de: resalesDe },
  'backoffice/shell': { en: shellEn, de: shellDe },
  'backoffice/stores': { en: storesEn, de: storesDe },
  'backoffice/subscription': { en: subscriptionEn, de: subscriptionDe },
  'backoffice/team': { en: teamEn, de: teamDe },
  'backoffice/webhooks': { en: webhooksEn, de: webhooksDe },
};
