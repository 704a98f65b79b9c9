// memorybot moderator page: the "Audit log" panel (the admin token only). It lists what
// memory did in the chosen guild and who asked — facts stored, archived, edited, deleted;
// extraction calls and errors; forget, opt-out, imports — newest first, a page at a time,
// of one kind when asked. Every value from the API becomes text (common.js's rule).
"use strict";

(() => {
  const { on, session, node, text, shortTime, option, setStatus, api, fail, ApiFailure } =
    window.memorybot;
  const noteIn = window.memorybot.showNote;
  const PAGE = 50; // events per request
  const KINDS = [
    "fact.stored", "fact.reinforced", "fact.superseded", "fact.archived", "fact.restored", "fact.edited",
    "fact.deleted", "message.deleted", "message.edited", "extraction.call", "extraction.error",
    "embedding.error", "member.forgotten", "member.optout", "member.optin", "channel.ignored",
    "channel.unignored", "setting.changed", "import", "profile.written",
  ];

  const $ = (id) => document.getElementById(id);
  const ui = {
    form: $("events-form"),
    kind: $("events-kind"),
    load: $("events-load"),
    note: $("events-note"),
    table: $("events-table"),
    rows: $("events-rows"),
    more: $("events-more"),
  };
  const view = { guildId: "", guildLabel: "", request: 0, kind: "", next: null, shown: 0 };

  const showNote = (message, kind) => noteIn(ui.note, message, kind);

  function clearList() {
    view.next = null;
    view.shown = 0;
    ui.rows.replaceChildren();
    ui.table.hidden = true;
    ui.more.hidden = true;
  }

  function guildChanged(guildId, label) {
    view.request++;
    view.guildId = guildId;
    view.guildLabel = label || guildId;
    clearList();
    ui.load.disabled = !guildId;
    showNote(
      guildId
        ? `Press “Load events” to read the audit log of ${view.guildLabel} (needs the admin token).`
        : "Choose a guild to read its audit log.",
    );
  }

  /** "Sarah (3000…)" for a member, the actor's own name ("memorybot", "api", "cli") else. */
  function who(id, name) {
    const shownId = text(id);
    const shownName = text(name);
    return shownName && shownName !== shownId ? `${shownName} (${shownId})` : shownId;
  }

  function renderRow(event) {
    const row = node("tr");
    const noun = text(event.kind).split(".")[0];
    const object = ["fact", "message", "channel"].includes(noun) && event.objectId
      ? `${noun} ${text(event.objectId)}`
      : "";
    const about = event.subject ? who(event.subject, event.subjectName) : "";
    row.append(
      node("td", shortTime(event.at), "time"),
      node("td", text(event.kind), "kind"),
      node("td", who(event.actor, event.actorName)),
      node("td", [object, about].filter(Boolean).join(" · ")),
      node("td", text(event.detail), "detail"),
    );
    return row;
  }

  async function loadEvents(more) {
    if (!session.token) return setStatus("Enter the API token first.", "error");
    if (!view.guildId) return setStatus("Choose a guild first.", "error");
    const kind = more ? view.kind : ui.kind.value;
    const mine = ++view.request;
    setStatus(more ? "Loading older events…" : `Loading the audit log of ${view.guildLabel}…`);
    let data;
    try {
      data = await api("api/memory/events", {
        guildId: view.guildId, kind, limit: PAGE, before: more ? view.next : "",
      });
    } catch (err) {
      if (mine !== view.request) return;
      if (err instanceof ApiFailure && err.code === "admin_required") {
        clearList();
        showNote("The audit log needs the admin token (MEMORYBOT_API_ADMIN_TOKEN): the token " +
          "in use is read-only.", "error");
        setStatus("The audit log needs the admin token: the token in use is read-only.", "error");
      } else fail(err, "Loading the audit log");
      return;
    }
    if (mine !== view.request) return;
    if (!more) clearList();
    view.kind = kind;
    const events = Array.isArray(data.events) ? data.events : [];
    for (const event of events) {
      if (event && typeof event === "object") ui.rows.append(renderRow(event));
    }
    view.shown += events.length;
    view.next = Number.isSafeInteger(data.nextBefore) ? data.nextBefore : null;
    ui.more.hidden = view.next === null;
    ui.table.hidden = view.shown === 0;
    const of = kind ? ` of kind ${kind}` : "";
    if (view.shown) ui.note.hidden = true;
    else showNote(`No events${of} in ${view.guildLabel} yet.`);
    setStatus(`${view.shown} event${view.shown === 1 ? "" : "s"}${of} of ${view.guildLabel}.`, "ok");
  }

  ui.kind.replaceChildren(option("", "every kind"), ...KINDS.map((k) => option(k, k)));
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    loadEvents(false);
  });
  ui.more.addEventListener("click", () => loadEvents(true));
  on("guild", guildChanged);
  guildChanged("", "");
})();
