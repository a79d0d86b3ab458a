import type { Migration } from "kysely";
import * as initial from "./2026-11-22T00-00_initial";
import * as paymentListIndex from "./2026-11-23T02-00_payment_list_index";
import * as mailOutboxClaims from "./2026-11-24T00-00_mail_outbox_claims";
import * as notNullTextKeys from "./2026-11-24T01-00_not_null_text_keys";
import * as requestEdge from "./2026-11-24T02-00_request_edge";
import * as deskSummaries from "./2026-11-25T00-00_desk_summaries";
import * as deskSearch from "./2026-11-25T01-00_desk_search";
import * as searchFilters from "./2026-11-26T00-00_search_filters";
import * as turnaroundMinutes from "./2026-11-26T01-00_turnaround_minutes";
import * as mailOutboxReplyFailed from "./2026-11-26T02-00_mail_outbox_reply_failed";
import * as redemptionDelivery from "./2026-11-26T03-00_redemption_delivery";
import * as sourcingRound from "./2026-11-26T04-00_sourcing_round";
import * as jobs from "./2026-11-26T05-00_jobs";
import * as roundSummaries from "./2026-11-26T06-00_round_summaries";
import * as userDeactivation from "./2026-11-26T07-00_user_deactivation";
import * as paymentReceipts from "./2026-11-26T08-00_payment_receipts";
import * as structuredOffers from "./2026-11-27T00-00_structured_offers";
import * as threads from "./2026-11-27T02-00_threads";
import * as listSorting from "./2026-11-27T04-00_list_sorting";
import * as operations from "./2026-11-27T06-00_operations";
import * as productList from "./2026-11-27T08-00_product_list";
import * as partnerListOrder from "./2026-11-27T10-00_partner_list_order";
import * as partnerDirectoryOrder from "./2026-11-27T12-00_partner_directory_order";
import * as productSearch from "./2026-11-27T14-00_product_search";
import * as roundPartnerCount from "./2026-11-27T16-00_round_partner_count";
import * as contactClientAddress from "./2026-11-27T18-00_contact_client_address";
import * as signInDevices from "./2026-11-28T00-00_sign_in_devices";
import * as lastSignIn from "./2026-11-28T02-00_last_sign_in";

/**
 * Migrations are listed statically (not read from the file system) so the same list works from the
 * bundled server build and from the TypeScript scripts. Landed migrations are frozen: add a new file.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T00-00_initial": initial,
  "2026-11-23T02-00_payment_list_index": paymentListIndex,
  "2026-11-24T00-00_mail_outbox_claims": mailOutboxClaims,
  "2026-11-24T01-00_not_null_text_keys": notNullTextKeys,
  "2026-11-24T02-00_request_edge": requestEdge,
  "2026-11-25T00-00_desk_summaries": deskSummaries,
  "2026-11-25T01-00_desk_search": deskSearch,
  "2026-11-26T00-00_search_filters": searchFilters,
  "2026-11-26T01-00_turnaround_minutes": turnaroundMinutes,
  "2026-11-26T02-00_mail_outbox_reply_failed": mailOutboxReplyFailed,
  "2026-11-26T03-00_redemption_delivery": redemptionDelivery,
  "2026-11-26T04-00_sourcing_round": sourcingRound,
  "2026-11-26T05-00_jobs": jobs,
  "2026-11-26T06-00_round_summaries": roundSummaries,
  "2026-11-26T07-00_user_deactivation": userDeactivation,
  "2026-11-26T08-00_payment_receipts": paymentReceipts,
  "2026-11-27T00-00_structured_offers": structuredOffers,
  "2026-11-27T02-00_threads": threads,
  "2026-11-27T04-00_list_sorting": listSorting,
  "2026-11-27T06-00_operations": operations,
  "2026-11-27T08-00_product_list": productList,
  "2026-11-27T10-00_partner_list_order": partnerListOrder,
  "2026-11-27T12-00_partner_directory_order": partnerDirectoryOrder,
  "2026-11-27T14-00_product_search": productSearch,
  "2026-11-27T16-00_round_partner_count": roundPartnerCount,
  "2026-11-27T18-00_contact_client_address": contactClientAddress,
  "2026-11-28T00-00_sign_in_devices": signInDevices,
  "2026-11-28T02-00_last_sign_in": lastSignIn,
};
