// memorybot moderator page: the messages a search found (its "Messages" tab). app.js runs
// the search and emits "messages" (the API's message items, the guild that answered); this
// script draws each message with its author, time, channel, score and a link to it in
// Discord, and its neighbouring turns, the message itself marked. It keeps common.js's rule:
// member-written text only ever becomes text (textContent), and the only links made are
// Discord message links built from validated ids.
"use strict";

(() => {
  const { on, node, text, number, shortTime, SNOWFLAKE } = window.memorybot;
  const list = document.getElementById("messages-list");

  /** "open in Discord" for a message, only when every id is a plain Discord id. */
  function jumpLink(guildId, channelId, messageId) {
    if (![guildId, channelId, messageId].every((id) => SNOWFLAKE.test(id))) return null;
    const link = node("a", "open in Discord", "jump");
    link.href = `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
    link.rel = "noopener noreferrer";
    link.target = "_blank";
    link.referrerPolicy = "no-referrer";
    return link;
  }

  function author(item) {
    return text(item.authorName) || text(item.authorId) || "?";
  }

  /** One neighbouring turn (the hit itself marked "hit"). */
  function turn(item, hitId) {
    const isHit = text(item.id) === hitId;
    const row = node("li", undefined, isHit ? "turn hit" : "turn");
    if (isHit) row.setAttribute("aria-current", "true");
    row.append(
      node("span", shortTime(item.createdAt), "turn-time"),
      node("span", author(item), "turn-author"),
      node("span", text(item.content), "turn-text"),
    );
    return row;
  }

  function messageItem(hit, guildId) {
    const id = text(hit.id);
    const channelId = text(hit.channelId);
    const item = node("li", undefined, "message-hit");
    item.dataset.id = id;
    const meta = node("div", undefined, "meta");
    meta.append(
      node("span", author(hit), "author"),
      node("span", shortTime(hit.createdAt) || "—", "time"),
      node("span", channelId ? `channel ${channelId}` : "—", "channel"),
      node("span", `score ${number(hit.score, 3)}`, "score"),
    );
    const link = jumpLink(guildId, channelId, id);
    if (link) meta.append(link);
    const turns = node("ol", undefined, "turns");
    const context = Array.isArray(hit.context) && hit.context.length ? hit.context : [hit];
    turns.append(...context.filter((t) => t && typeof t === "object").map((t) => turn(t, id)));
    item.append(meta, turns);
    return item;
  }

  on("messages", (hits, guildId) => {
    const items = (Array.isArray(hits) ? hits : []).filter((h) => h && typeof h === "object");
    list.replaceChildren(...items.map((hit) => messageItem(hit, text(guildId))));
  });
})();
