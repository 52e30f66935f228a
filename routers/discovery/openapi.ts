/** Beside `/queues`, not under it: a queue may be named `discovery`. */
export const discoveryPath = '/c/{connectionId}/discovery';
export const discoveryTags = ['queues'];
