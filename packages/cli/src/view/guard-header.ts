/** The request header that carries the viewer's token (the page sends it on every API call). */
export const TOKEN_HEADER = "x-lance-nd-token";
