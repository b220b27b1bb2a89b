/** Usernames: 1-128 letters, digits and . _ @ + - (checked before any query). */
export const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;
