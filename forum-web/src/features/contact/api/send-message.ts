import type { ContactMessageRequest } from '@forum/contracts';
import { api } from '../../../lib/api';

/** POST /api/contact — the Contact page's message (no sign-in needed). */
export const sendMessageApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContactMessage: build.mutation<unknown, ContactMessageRequest>({
      query: (body) => ({ url: 'contact', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMessageMutation } = sendMessageApi;
