// memorybot moderator page: the token, the guild chooser, search (facts here; the messages
// found are drawn by messages.js, on the "messages" event) and MEMORY.md. The helpers
// every panel shares (and the safety rule they all keep: API data only ever reaches the page
// as text) are in common.js; further panels (review.js, ...) follow the "guild" and
// "signedOut" events this script emits through window.memorybot.
"use strict";

(() => {
  const { on, emit, session, text, number, node, option, setStatus, sourceCell, api, fail } =
    window.memorybot;
  const MAX_INLINE_DEPTH = 4;

  const $ = (id) => document.getElementById(id);
  const ui = {
    tokenForm: $("token-form"),
    token: $("token"),
    clearToken: $("clear-token"),
    searchForm: $("search-form"),
    guild: $("guild"),
    query: $("query"),
    limit: $("limit"),
    table: $("results-table"),
    results: $("results"),
    noFacts: $("no-facts"),
    messages: $("messages-list"),
    noMessages: $("no-messages"),
    tabs: $("search-tabs"),
    tab: { facts: $("tab-facts"), messages: $("tab-messages") },
    memory: $("memory"),
    refresh: $("refresh"),
  };
  // Each area drops answers to requests that a newer request has replaced.
  const latest = { guilds: 0, search: 0, memory: 0 };

  // --- token -----------------------------------------------------------------------------

  /** The token is gone (cleared, or refused with a 401): nothing of the guilds stays shown. */
  function signedOut() {
    ui.token.placeholder = "paste the bearer token";
    latest.guilds++;
    latest.search++;
    latest.memory++;
    resetGuilds("(enter a token first)");
    clearResults();
    showMemoryNote("Choose a guild to see its memory.");
  }

  function useToken(event) {
    event.preventDefault();
    const value = ui.token.value.trim();
    if (!value) {
      setStatus("Paste the API token first.", "error");
      return;
    }
    if (!session.acceptable(value)) {
      setStatus("That is not a token: it has spaces or characters a token cannot have.", "error");
      return;
    }
    session.use(value);
    ui.token.value = "";
    ui.token.placeholder = "token in use (kept for this tab only)";
    loadGuilds();
  }

  function clearToken() {
    ui.token.value = "";
    session.forget();
    setStatus("Token cleared. Enter the API token to begin.");
  }

  // --- guilds ----------------------------------------------------------------------------

  function resetGuilds(label) {
    ui.guild.replaceChildren(option("", label));
    emit("guild", "", "");
  }

  /** The chosen guild as the chooser shows it, e.g. "Night Shift (1111…)". */
  function guildLabel() {
    return ui.guild.value ? ui.guild.selectedOptions[0]?.textContent || ui.guild.value : "";
  }

  async function loadGuilds() {
    const mine = ++latest.guilds;
    latest.search++;
    latest.memory++;
    resetGuilds("(loading guilds…)");
    clearResults();
    showMemoryNote("Choose a guild to see its memory.");
    setStatus("Loading guilds…");
    let data;
    try {
      data = await api("api/memory/guilds");
    } catch (err) {
      if (mine === latest.guilds) {
        resetGuilds("(no guilds)");
        fail(err, "Loading guilds");
      }
      return;
    }
    if (mine !== latest.guilds) return;
    const guilds = (Array.isArray(data.guilds) ? data.guilds : []).filter(
      (guild) => guild && typeof guild.id === "string",
    );
    resetGuilds(guilds.length ? "— choose a guild —" : "(no guilds for this token)");
    for (const guild of guilds) {
      const name = text(guild.name);
      ui.guild.append(option(guild.id, name && name !== guild.id ? `${name} (${guild.id})` : guild.id));
    }
    if (guilds.length === 1) {
      ui.guild.value = guilds[0].id;
      guildChanged();
    } else {
      setStatus(
        guilds.length ? `Token accepted: choose one of ${guilds.length} guilds.`
          : "Token accepted, but it may not read any guild with stored memory.",
        "ok",
      );
    }
  }

  function guildChanged() {
    latest.search++;
    clearResults();
    emit("guild", ui.guild.value, guildLabel());
    if (ui.guild.value) loadMemory(false);
    else showMemoryNote("Choose a guild to see its memory.");
  }

  // --- search ----------------------------------------------------------------------------

  // Facts and messages: one tab each, what the chosen tab found shown (or that it found none).
  const found = { facts: 0, messages: 0, tab: "facts" };

  function clearResults() {
    ui.results.replaceChildren();
    emit("messages", [], "");
    found.facts = found.messages = 0;
    ui.tabs.hidden = true;
    showTab("facts");
  }

  function showTab(name) {
    found.tab = name;
    for (const [tab, button] of Object.entries(ui.tab)) {
      button.setAttribute("aria-selected", String(tab === name));
      button.tabIndex = tab === name ? 0 : -1;
    }
    ui.table.hidden = name !== "facts" || found.facts === 0;
    ui.noFacts.hidden = name !== "facts" || found.facts > 0 || ui.tabs.hidden;
    ui.messages.hidden = name !== "messages" || found.messages === 0;
    ui.noMessages.hidden = name !== "messages" || found.messages > 0 || ui.tabs.hidden;
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
  }

  async function search(event) {
    event.preventDefault();
    if (!session.token) return setStatus("Enter the API token first.", "error");
    const guildId = ui.guild.value;
    if (!guildId) return setStatus("Choose a guild first.", "error");
    const q = ui.query.value.trim();
    if (!q) return setStatus("Type something to search for.", "error");
    const mine = ++latest.search;
    setStatus(`Searching for “${q}”…`);
    let data;
    try {
      data = await api("api/memory/search", {
        q, guildId, limit: ui.limit.value.trim(), kind: "all",
      });
    } catch (err) {
      if (mine === latest.search) {
        clearResults();
        fail(err, "Search");
      }
      return;
    }
    if (mine !== latest.search) return;
    const rows = Array.isArray(data.results) ? data.results : [];
    const messages = Array.isArray(data.messages) ? data.messages : [];
    const answeredGuild = text(data.guildId);
    ui.results.replaceChildren(...rows.map((hit) => resultRow(hit, answeredGuild)));
    emit("messages", messages, answeredGuild);
    found.facts = rows.length;
    found.messages = messages.length;
    ui.tab.facts.textContent = `Facts (${rows.length})`;
    ui.tab.messages.textContent = `Messages (${messages.length})`;
    ui.tabs.hidden = rows.length + messages.length === 0;
    showTab(rows.length || !messages.length ? "facts" : "messages");
    if (rows.length || messages.length) {
      const what = `${plural(rows.length, "fact")} and ${plural(messages.length, "message")}`;
      setStatus(`${what} for “${q}”.`, "ok");
    } else setStatus(`No results for “${q}”.`);
  }

  function resultRow(hit, guildId) {
    const row = node("tr");
    const score = node("td", number(hit.score, 3), "num");
    score.title = `semantic ${number(hit.semanticScore, 3)} · lexical ${number(hit.lexicalScore, 3)}`;
    row.append(
      node("td", text(hit.fact), "fact"),
      node("td", text(hit.subjectName) || text(hit.subject)),
      node("td", text(hit.type), "nowrap"),
      node("td", number(hit.confidence, 2), "num"),
      score,
      node("td", text(hit.evidence) || "—", "evidence"),
      sourceCell(guildId, text(hit.channelId), text(hit.sourceMessageId)),
    );
    return row;
  }

  // --- MEMORY.md -------------------------------------------------------------------------

  function showMemoryNote(message) {
    ui.memory.replaceChildren(node("p", message, "muted"));
  }

  async function loadMemory(regenerate) {
    const guildId = ui.guild.value;
    if (!session.token) return setStatus("Enter the API token first.", "error");
    if (!guildId) return setStatus("Choose a guild first.", "error");
    const mine = ++latest.memory;
    const startedAt = performance.now();
    showMemoryNote(regenerate ? "Regenerating MEMORY.md…" : "Loading MEMORY.md…");
    let data;
    try {
      data = regenerate
        ? await api("api/memory/refresh", { guildId }, "POST")
        : await api("api/memory", { guildId });
    } catch (err) {
      if (mine === latest.memory) {
        showMemoryNote("MEMORY.md could not be loaded.");
        fail(err, regenerate ? "Regenerating MEMORY.md" : "Loading MEMORY.md");
      }
      return;
    }
    if (mine !== latest.memory) return;
    renderMarkdown(ui.memory, text(data.markdown));
    setStatus(`MEMORY.md of ${guildLabel()} loaded.`, "ok", startedAt);
  }

  /** A small markdown subset: headings, bullet lists, paragraphs and inline marks. */
  function renderMarkdown(container, markdown) {
    const blocks = [];
    let paragraph = null;
    let list = null;
    for (const raw of markdown.split(/\r?\n/)) {
      const line = raw.trimEnd();
      let match;
      if (!line.trim()) {
        paragraph = list = null;
      } else if ((match = /^(#{1,6})\s+(.*)$/.exec(line))) {
        paragraph = list = null;
        const heading = node(`h${Math.min(match[1].length, 3)}`);
        inline(heading, match[2].replace(/\s+#+$/, ""), 0);
        blocks.push(heading);
      } else if ((match = /^\s*[-*+]\s+(.*)$/.exec(line))) {
        paragraph = null;
        if (!list) blocks.push((list = node("ul")));
        const item = node("li");
        inline(item, match[1], 0);
        list.append(item);
      } else {
        list = null;
        if (paragraph) paragraph.append(" ");
        else blocks.push((paragraph = node("p")));
        inline(paragraph, line.trim(), 0);
      }
    }
    if (blocks.length) container.replaceChildren(...blocks);
    else showMemoryNote("MEMORY.md is empty.");
  }

  // Inline marks, tried in this order at each position. A markdown link never becomes an
  // anchor: its text and its address are both shown as plain text.
  const INLINE = [
    ["code", /`([^`]+)`/y],
    ["link", /\[([^\]]*)\]\(([^()\s]*)\)/y],
    ["strong", /\*\*(?=\S)(.+?)\*\*/y],
    ["em", /\*(?=[^\s*])([^*]*[^\s*])?\*/y],
    ["em", /_(?=[^\s_])([^_]*[^\s_])?_(?![\p{L}\p{N}_])/uy],
  ];
  const WORD_CHAR = /[\p{L}\p{N}_]/u;

  function inline(parent, source, depth) {
    if (depth > MAX_INLINE_DEPTH) {
      parent.append(source);
      return;
    }
    let plain = "";
    let at = 0;
    while (at < source.length) {
      let found = null;
      for (const [kind, pattern] of INLINE) {
        // "_" only opens emphasis at a word's start (snake_case and __dunder__ stay as typed)
        if (source[at] === "_" && at > 0 && WORD_CHAR.test(source[at - 1])) continue;
        pattern.lastIndex = at;
        const match = pattern.exec(source);
        if (match) {
          found = [kind, match];
          break;
        }
      }
      if (!found) {
        plain += source[at++];
        continue;
      }
      const [kind, match] = found;
      if (plain) parent.append(plain);
      plain = "";
      if (kind === "code") {
        parent.append(node("code", match[1]));
      } else if (kind === "link") {
        const label = node("span", undefined, "link-text");
        inline(label, match[1], depth + 1);
        parent.append(label);
        if (match[2] && match[2] !== match[1]) parent.append(node("span", ` (${match[2]})`, "url"));
      } else {
        const mark = node(kind);
        inline(mark, match[1] || "", depth + 1);
        parent.append(mark);
      }
      at += match[0].length;
    }
    if (plain) parent.append(plain);
  }

  // --- wiring ----------------------------------------------------------------------------

  on("signedOut", signedOut);
  ui.tokenForm.addEventListener("submit", useToken);
  ui.clearToken.addEventListener("click", clearToken);
  ui.guild.addEventListener("change", guildChanged);
  ui.searchForm.addEventListener("submit", search);
  for (const [name, button] of Object.entries(ui.tab)) {
    button.addEventListener("click", () => showTab(name));
  }
  ui.refresh.addEventListener("click", () => loadMemory(true));

  if (session.token) {
    ui.token.placeholder = "token in use (kept for this tab only)";
    loadGuilds();
  } else {
    resetGuilds("(enter a token first)");
    setStatus("Enter the API token to begin.");
  }
})();
