/**
 * The back office's shared texts (English, the contract): what the first load and the shared
 * components (lists, dialogs, the session check) say. Kept small: it is in the first load.
 */
export const en = {
  loading: 'Loading',
  checkingSession: 'Checking your session',
  'list.pageSize': 'Page size',
  'list.resetFilters': 'Reset filters',
  'list.count': '{count, plural, one {# item} other {# items}}',
  'list.exportCsv': 'Export CSV',
  'unsaved.title': 'Unsaved changes',
  'unsaved.stay': 'Stay',
  'unsaved.leave': 'Leave without saving',
  'date.clear': 'Clear the date',
  'date.clearNamed': 'Clear {name}',
  'calendar.label': 'Month calendar',
  'calendar.previous': 'Previous month',
  'calendar.next': 'Next month',
  'tickets.printOne': 'Print ticket',
  'tickets.printAll': 'Print tickets',
  'tickets.pdf': 'Confirmation PDF',
  'tickets.email': 'E-mail tickets',
  'tickets.emailAgain': 'E-mail the tickets again?',
  'tickets.message': 'The tickets and the order confirmation of {reference} go to {email}.',
  'tickets.newLink': 'The customer’s booking page gets a new link: the link in earlier e-mails stops working.',
  'tickets.send': 'Send e-mail',
  cancel: 'Cancel',
  save: 'Save',
  saveChanges: 'Save changes',
  delete: 'Delete',
  edit: 'Edit',
  close: 'Close',
  back: 'Back',
  yes: 'Yes',
  no: 'No',
  none: 'None',
  all: 'All',
  search: 'Search',
  actions: 'Actions',
  saved: 'Saved.',
} as const satisfies Record<string, string>;

export type CommonKey = keyof typeof en;
