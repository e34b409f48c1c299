import type { ChatUser, Conversation, Message } from '@contracts/messaging';
import { api } from '@/lib/api';

/** Conversations, threads, sending and unlocking paid messages (SPEC §7). */
export const messagingApi = api.enhanceEndpoints({ addTagTypes: ['Conversations', 'Thread'] }).injectEndpoints({
  endpoints: (build) => ({
    conversations: build.query<Conversation[], void>({
      query: () => '/api/conversations',
      providesTags: ['Conversations'],
    }),
    conversationUser: build.query<{ user: ChatUser }, string>({
      query: (userId) => `/api/conversations/${encodeURIComponent(userId)}`,
    }),
    thread: build.query<Message[], string>({
      query: (userId) => `/api/messages/${encodeURIComponent(userId)}`,
      providesTags: (_result, _error, userId) => [{ type: 'Thread', id: userId }],
    }),
    sendMessage: build.mutation<Message, { receiverId: string; content: string; price?: string; mediaIds?: string[] }>({
      query: (body) => ({ url: '/api/messages', method: 'POST', body }),
      invalidatesTags: (_result, _error, { receiverId }) => [{ type: 'Thread', id: receiverId }, 'Conversations'],
    }),
    unlockMessage: build.mutation<Message, { messageId: string; otherUserId: string }>({
      query: ({ messageId }) => ({ url: `/api/messages/${encodeURIComponent(messageId)}/unlock`, method: 'POST' }),
      invalidatesTags: (_result, _error, { otherUserId }) => [{ type: 'Thread', id: otherUserId }, 'Conversations'],
    }),
  }),
});

export const {
  useConversationsQuery,
  useConversationUserQuery,
  useThreadQuery,
  useSendMessageMutation,
  useUnlockMessageMutation,
} = messagingApi;
