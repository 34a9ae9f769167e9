import { api } from '@app/api-client';
import { API_PATHS, type Contact, ContactSchema } from '@app/contracts';

export function getContact(signal?: AbortSignal): Promise<Contact> {
  return api.get(API_PATHS.publicContact, ContactSchema, { signal });
}
