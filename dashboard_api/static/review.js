// memorybot moderator page: the "Review facts" panel (the admin token only). It lists the
// chosen guild's facts newest first (of one member, archived ones too when asked), a page at
// a time; each row can be edited in place (text and type), archived or restored, or deleted
// after a confirmation. It follows the page's guild chooser through window.memorybot's
// "guild" event, and keeps common.js's rule: member-written text only ever becomes text (a
// cell's textContent, the edit box's value, window.confirm's plain message).
"use strict";

(() => {
  const { on, session, node, text, number, shortTime, option, button, setStatus, sourceCell } =
    window.memorybot;
  const noteIn = window.memorybot.showNote;
  const { api, fail, ApiFailure, SNOWFLAKE } = window.memorybot;
  const PAGE = 50; // facts per request
  const TYPES = ["preference", "profile", "relationship", "project", "event", "other"];
  const LORE = "__lore__"; // the subject of the guild's shared lore

  const $ = (id) => document.getElementById(id);
  const ui = {
    form: $("review-form"),
    subject: $("review-subject"),
    members: $("review-members"),
    archived: $("review-archived"),
    load: $("review-load"),
    note: $("review-note"),
    table: $("review-table"),
    rows: $("review-rows"),
    more: $("review-more"),
  };

  const view = {
    guildId: "",
    guildLabel: "",
    request: 0, // the newest list request: answers to older ones are dropped
    generation: 0, // bumped when the list starts over: answers about an older list are dropped
    filter: null, // {subject, archived} of the list shown; null: none shown
    oldest: null, // the id of the last fact of the last page (the next page's "before")
    facts: new Map(), // id -> the fact as the API last described it, in the list's order
    rows: new Map(), // id -> {row, factCell, typeCell, actions}
    editing: null, // the id of the row being edited (one at a time)
    members: new Map(), // subject -> label, of the facts loaded, for the member field
  };

  // --- the list --------------------------------------------------------------------------

  /** "active", "archived", or "superseded by #12" (a fact said later contradicts it); a fact
   * said several times says how often. */
  function factState(fact, active) {
    const by = Number.isSafeInteger(fact.supersededBy) ? ` by #${fact.supersededBy}` : "";
    const state = active ? "active" : by ? `superseded${by}` : "archived";
    const seen = Number.isSafeInteger(fact.timesSeen) && fact.timesSeen > 1;
    return seen ? `${state} · said ${fact.timesSeen}×` : state;
  }

  const showNote = (message, kind) => noteIn(ui.note, message, kind);

  function clearList() {
    view.generation++;
    view.filter = null;
    view.oldest = null;
    view.editing = null;
    view.facts.clear();
    view.rows.clear();
    ui.rows.replaceChildren();
    ui.table.hidden = true;
    ui.more.hidden = true;
  }

  function guildChanged(guildId, label) {
    view.request++;
    view.guildId = guildId;
    view.guildLabel = label || guildId;
    view.members.clear();
    ui.members.replaceChildren();
    ui.subject.value = "";
    clearList();
    ui.load.disabled = !guildId;
    showNote(
      guildId
        ? `Press “Load facts” to review the facts of ${view.guildLabel} (needs the admin token).`
        : "Choose a guild to review its facts.",
    );
  }

  /** The member field as the API's ``subject``: null for every member, undefined if invalid. */
  function subjectFilter() {
    const value = ui.subject.value.trim();
    if (!value) return null;
    if (value.toLowerCase() === "lore" || value === LORE) return LORE;
    return SNOWFLAKE.test(value) ? value : undefined;
  }

  function validFact(fact) {
    return Boolean(fact) && typeof fact === "object" && Number.isSafeInteger(fact.id) && fact.id > 0;
  }

  function memberLabel(fact) {
    const subject = text(fact.subject);
    if (subject === LORE) return "lore";
    const name = text(fact.subjectName);
    return name && name !== subject ? name : subject;
  }

  function describeFilter(filter) {
    const parts = [];
    if (filter.subject) parts.push(filter.subject === LORE ? "lore" : `member ${filter.subject}`);
    if (filter.archived) parts.push("archived included");
    return parts.length ? ` (${parts.join(", ")})` : "";
  }

  function needsAdmin(err) {
    return err instanceof ApiFailure && err.code === "admin_required";
  }

  function showNeedsAdmin() {
    clearList();
    showNote(
      "Reviewing facts needs the admin token (MEMORYBOT_API_ADMIN_TOKEN). The token in use may " +
        "search and read MEMORY.md, but not review, edit, archive or delete facts: enter the " +
        "admin token above to review them.",
      "error",
    );
    setStatus("Reviewing facts needs the admin token: the token in use is read-only.", "error");
  }

  async function loadFacts(more) {
    if (!session.token) return setStatus("Enter the API token first.", "error");
    if (!view.guildId) return setStatus("Choose a guild first.", "error");
    let filter = view.filter;
    if (!more || !filter) {
      const subject = subjectFilter();
      if (subject === undefined) {
        return setStatus(
          "The member filter takes a member id (a Discord id) or “lore”; leave it empty for all.",
          "error",
        );
      }
      filter = { subject, archived: ui.archived.checked };
      more = false;
    }
    const mine = ++view.request;
    const guildId = view.guildId;
    setStatus(more ? "Loading older facts…" : `Loading the facts of ${view.guildLabel}…`);
    ui.more.disabled = true;
    let data;
    try {
      data = await api("api/memory/facts", {
        guildId,
        subject: filter.subject,
        includeArchived: filter.archived ? "true" : "",
        limit: PAGE,
        before: more ? view.oldest : "",
      });
    } catch (err) {
      if (mine !== view.request) return;
      ui.more.disabled = false;
      if (needsAdmin(err)) showNeedsAdmin();
      else fail(err, more ? "Loading older facts" : "Loading facts");
      return;
    }
    if (mine !== view.request) return;
    const page = Array.isArray(data.facts) ? data.facts : [];
    if (!more) {
      clearList();
      view.filter = filter;
    }
    let added = 0;
    for (const fact of page.filter(validFact)) {
      if (view.oldest === null || fact.id < view.oldest) view.oldest = fact.id;
      if (view.facts.has(fact.id)) continue;
      view.facts.set(fact.id, fact);
      ui.rows.append(renderRow(fact));
      view.members.set(text(fact.subject), memberLabel(fact));
      added++;
    }
    ui.more.hidden = page.length < PAGE;
    ui.more.disabled = false;
    showMembers();
    listChanged();
    const shown = view.facts.size;
    const plural = shown === 1 ? "" : "s";
    if (more) setStatus(`${added} older fact${added === 1 ? "" : "s"} loaded; ${shown} shown.`, "ok");
    else if (shown) {
      const rest = ui.more.hidden ? "" : " (newest first: “Load more” for older ones)";
      setStatus(`${shown} fact${plural} of ${view.guildLabel}${describeFilter(filter)}${rest}.`, "ok");
    } else setStatus(`No facts of ${view.guildLabel}${describeFilter(filter)}.`);
  }

  /** The member field suggests the members (and lore) of the facts loaded so far. */
  function showMembers() {
    const entries = [...view.members].sort((a, b) => a[1].localeCompare(b[1]));
    ui.members.replaceChildren(
      ...entries.map(([subject, label]) =>
        option(subject === LORE ? "lore" : subject, label === subject ? "" : label),
      ),
    );
  }

  /** The table shows when it has rows; an empty list says so. */
  function listChanged() {
    ui.table.hidden = view.facts.size === 0;
    if (view.facts.size) ui.note.hidden = true;
    else if (view.filter) {
      showNote(`No facts of ${view.guildLabel}${describeFilter(view.filter)} to review.`);
    }
  }

  // --- rows ------------------------------------------------------------------------------

  function renderRow(fact) {
    const id = fact.id;
    const active = fact.active !== false;
    const row = node("tr", undefined, active ? "" : "archived");
    row.dataset.factId = String(id);

    const factCell = node("td", undefined, "fact");
    factCell.append(node("span", text(fact.fact), "fact-text"));
    const evidence = text(fact.evidence);
    if (evidence && evidence !== text(fact.fact)) {
      factCell.append(node("span", `evidence: ${evidence}`, "evidence-line"));
    }

    const member = button(memberLabel(fact), () => {
      ui.subject.value = text(fact.subject) === LORE ? "lore" : text(fact.subject);
      loadFacts(false);
    }, "linkish");
    member.title = `Show only the facts of ${memberLabel(fact)} (${text(fact.subject)})`;
    const memberCell = node("td", undefined, "member");
    memberCell.append(member);

    const typeCell = node("td", text(fact.type), "nowrap");
    const times = node("td", undefined, "nowrap time");
    const said = shortTime(fact.saidAt) || shortTime(fact.createdAt);
    times.append(node("span", said ? `said ${said}` : "—"));
    const updated = shortTime(fact.updatedAt);
    if (updated && text(fact.updatedAt) !== text(fact.createdAt)) {
      times.append(node("span", `updated ${updated}`, "muted"));
    }
    times.title = ["saidAt", "createdAt", "updatedAt"]
      .map((key) => `${key} ${text(fact[key]) || "—"}`)
      .join("\n");

    const actions = node("td", undefined, "actions");
    actions.append(
      button("Edit", () => startEdit(id), "secondary"),
      active
        ? button("Archive", () => setActive(id, false), "secondary")
        : button("Restore", () => setActive(id, true), "secondary"),
      button("Delete", () => remove(id), "danger"),
    );

    row.append(
      factCell,
      memberCell,
      typeCell,
      node("td", number(fact.confidence, 2), "num"),
      times,
      node("td", factState(fact, active), "nowrap state"),
      sourceCell(view.guildId, text(fact.channelId), text(fact.sourceMessageId)),
      actions,
    );
    view.rows.set(id, { row, factCell, typeCell, actions });
    return row;
  }

  /** The row shows the fact as the API last described it (leaving edit mode). */
  function redraw(id) {
    const entry = view.rows.get(id);
    if (view.editing === id) view.editing = null;
    if (entry) entry.row.replaceWith(renderRow(view.facts.get(id)));
  }

  function drop(id) {
    const entry = view.rows.get(id);
    if (view.editing === id) view.editing = null;
    if (entry) entry.row.remove();
    view.rows.delete(id);
    view.facts.delete(id);
    listChanged();
  }

  function setBusy(id, busy) {
    const entry = view.rows.get(id);
    if (!entry) return;
    entry.row.classList.toggle("busy", busy);
    for (const control of entry.row.querySelectorAll("button, input, select, textarea")) {
      control.disabled = busy;
    }
  }

  function quoted(fact) {
    return `“${text(fact.fact)}”`;
  }

  // --- edit, archive / restore, delete ---------------------------------------------------

  function startEdit(id) {
    if (view.editing !== null && view.editing !== id) redraw(view.editing); // one at a time
    const fact = view.facts.get(id);
    const entry = view.rows.get(id);
    if (!fact || !entry) return;
    view.editing = id;
    const type = node("select", undefined, "edit-type");
    type.setAttribute("aria-label", `Type of fact #${id}`);
    const types = TYPES.includes(fact.type) ? TYPES : [...TYPES, text(fact.type)];
    type.append(...types.map((name) => option(name, name)));
    type.value = text(fact.type);
    const box = node("textarea", undefined, "edit-text");
    box.value = text(fact.fact); // a value is text: nothing in it is parsed
    box.rows = 3;
    box.setAttribute("aria-label", `Text of fact #${id}`);
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") cancelEdit(id);
      else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) saveEdit(id, box, type);
    });
    entry.factCell.replaceChildren(box);
    entry.typeCell.replaceChildren(type);
    entry.actions.replaceChildren(
      button("Save", () => saveEdit(id, box, type)),
      button("Cancel", () => cancelEdit(id), "secondary"),
    );
    entry.row.classList.add("editing");
    box.focus();
    setStatus(`Editing fact #${id}: change its text or type, then Save (Ctrl+Enter) or Cancel.`);
  }

  function cancelEdit(id) {
    redraw(id);
    setStatus(`Edit cancelled: fact #${id} is unchanged.`);
  }

  async function saveEdit(id, box, type) {
    const fact = view.facts.get(id);
    if (!fact) return;
    const changes = {};
    const newText = box.value.trim();
    if (newText !== text(fact.fact)) changes.fact = newText;
    if (type.value !== text(fact.type)) changes.type = type.value;
    if (!Object.keys(changes).length) {
      redraw(id);
      setStatus(`Nothing to save: fact #${id} is unchanged.`);
      return;
    }
    const saved = await patch(id, changes, `Saving fact #${id}`);
    if (saved) setStatus(`Saved fact #${id}: ${quoted(saved)} (${text(saved.type)}).`, "ok");
  }

  async function setActive(id, active) {
    const saved = await patch(id, { active }, `${active ? "Restoring" : "Archiving"} fact #${id}`);
    if (!saved) return;
    if (active) {
      setStatus(`Restored fact #${id}: ${quoted(saved)}. Search and replies use it again.`, "ok");
    } else {
      const hidden = view.rows.has(id) ? "" : " Tick “include archived” to see it.";
      setStatus(
        `Archived fact #${id}: ${quoted(saved)}. Search and replies leave it out.${hidden}`, "ok",
      );
    }
  }

  /** PATCH one fact; its row then shows the answer. The fact, or null (the failure shown). */
  async function patch(id, changes, what) {
    const generation = view.generation;
    setBusy(id, true);
    let data;
    try {
      data = await api(`api/memory/facts/${id}`, { guildId: view.guildId }, "PATCH", changes);
    } catch (err) {
      if (generation !== view.generation) return null;
      setBusy(id, false); // an edit stays open with what was typed, to fix and save again
      if (needsAdmin(err)) showNeedsAdmin();
      else fail(err, what);
      if (err instanceof ApiFailure && err.status === 404) drop(id); // gone meanwhile
      return null;
    }
    if (generation !== view.generation) return null;
    const fact = data.fact;
    if (!validFact(fact) || fact.id !== id) {
      setBusy(id, false);
      setStatus(`${what}: the API answered with something else than this fact.`, "error");
      return null;
    }
    view.facts.set(id, fact);
    if (fact.active === false && !view.filter.archived) drop(id); // this list hides archived
    else redraw(id);
    return fact;
  }

  async function remove(id) {
    const fact = view.facts.get(id);
    if (!fact) return;
    const question =
      `Delete this fact for good?\n\n${quoted(fact)}\n\n` +
      `${memberLabel(fact)} · ${text(fact.type)} · fact #${id}\n\n` +
      "It leaves search, replies and MEMORY.md and cannot be undone (Archive only hides it).";
    if (!window.confirm(question)) {
      setStatus(`Nothing deleted: fact #${id} is kept.`);
      return;
    }
    const generation = view.generation;
    setBusy(id, true);
    try {
      await api(`api/memory/facts/${id}`, { guildId: view.guildId }, "DELETE");
    } catch (err) {
      if (generation !== view.generation) return;
      setBusy(id, false);
      if (needsAdmin(err)) showNeedsAdmin();
      else fail(err, `Deleting fact #${id}`);
      if (err instanceof ApiFailure && err.status === 404) drop(id);
      return;
    }
    if (generation !== view.generation) return;
    drop(id);
    setStatus(`Deleted fact #${id}: ${quoted(fact)}.`, "ok");
  }

  // --- wiring ----------------------------------------------------------------------------

  on("guild", guildChanged);
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    loadFacts(false);
  });
  ui.archived.addEventListener("change", () => {
    if (view.filter) loadFacts(false); // a list is shown: show it again with or without
  });
  ui.more.addEventListener("click", () => loadFacts(true));
  guildChanged("", "");
})();
