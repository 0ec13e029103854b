#include "profile_prescan.h"

#include "profile_limits.h"

#include <QByteArrayView>
#include <algorithm>
#include <optional>
#include <vector>

namespace gemmscope {

namespace {

// An object or a list the pass is inside.
struct PrescanContainer {
    bool object = false;
    bool expectName = false;   // an object's next string is a member's name
    QByteArrayView name;       // an object's member being read, as written (escapes not undone)
    bool profiles = false;     // the root's "profiles" list
    bool runs = false;         // the root's "runs" list
    bool instructions = false; // an "instructions" list inside one of its entries
    qsizetype values = 0;      // a list's values begun so far
};

// One entry of the "profiles" list: where its bytes are, and its longest "instructions" list.
struct ProfileEntrySpan {
    qsizetype begin = 0, end = 0;
    qsizetype instructions = 0;
};

// A root list whose entries the pass marks: the stack's size while directly inside it, and the
// entry being read.
struct ListEntries {
    qsizetype depth = -1; // -1: not inside the list
    bool inEntry = false;
    qsizetype entryBegin = 0;
    bool at(size_t stackSize) const { return inEntry && qsizetype(stackSize) == depth; }
};

// What the pass found: the entries of "profiles" where it followed the whole file (none where it
// could not, or "profiles" came twice), and the "runs" list (RunListSpans).
struct PrescanFindings {
    std::optional<std::vector<ProfileEntrySpan>> profiles;
    std::optional<RunListSpans> runs;
};

// Deeper than Qt's parser reads (it refuses a document nested past 1,024 levels): handed on as it
// is, for the parser to refuse.
constexpr size_t kMaxPrescanDepth = 2048;

bool endsPrescanToken(char c)
{
    return c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '{' || c == '[' || c == ' ' ||
           c == '\t' || c == '\n' || c == '\r';
}

// The "runs" list as far as the pass read it: what follows its complete entries begins at the
// entry it could not finish, or after the last one.
void stopRuns(std::optional<RunListSpans> &runs, const ListEntries &list)
{
    if (!runs || runs->closed)
        return;
    runs->restBegin =
        list.inEntry ? list.entryBegin : (runs->entries.empty() ? runs->open + 1 : runs->entries.back().end);
}

PrescanFindings prescanFile(const QByteArray &bytes)
{
    const char *data = bytes.constData();
    const qsizetype size = bytes.size();
    std::vector<PrescanContainer> stack;
    std::vector<ProfileEntrySpan> entries;
    PrescanFindings found;
    bool profilesSeen = false, runsSeen = false;
    ListEntries profileList, runList;
    ProfileEntrySpan entry;
    const auto valueBegins = [&](qsizetype at) {
        if (stack.empty() || stack.back().object)
            return;
        PrescanContainer &list = stack.back();
        ++list.values;
        if (list.profiles) {
            profileList.inEntry = true;
            entry = ProfileEntrySpan{at, at, 0};
        } else if (list.runs) {
            runList.inEntry = true;
            runList.entryBegin = at;
        } else if (list.instructions) {
            entry.instructions = std::max(entry.instructions, list.values);
        }
    };
    // After a value ended at `at`: the end of a list's entry where it was one.
    const auto valueEnds = [&](qsizetype at) {
        if (profileList.at(stack.size())) {
            entry.end = at;
            entries.push_back(entry);
            profileList.inEntry = false;
        } else if (runList.at(stack.size())) {
            found.runs->entries.push_back({runList.entryBegin, at});
            runList.inEntry = false;
        }
    };
    const auto stop = [&] {
        stopRuns(found.runs, runList);
        return found;
    };
    qsizetype i = 0;
    while (i < size) {
        const char c = data[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':') {
            ++i;
        } else if (c == ',') {
            if (!stack.empty() && stack.back().object)
                stack.back().expectName = true;
            ++i;
        } else if (c == '"') {
            const qsizetype begin = i++;
            while (i < size && data[i] != '"')
                i += data[i] == '\\' ? 2 : 1;
            if (i >= size)
                return stop(); // truncated
            ++i;
            if (!stack.empty() && stack.back().object && stack.back().expectName) {
                stack.back().name = QByteArrayView(data + begin + 1, i - begin - 2);
                stack.back().expectName = false;
            } else {
                valueBegins(begin);
                valueEnds(i);
            }
        } else if (c == '{' || c == '[') {
            valueBegins(i);
            PrescanContainer next;
            next.object = c == '{';
            next.expectName = next.object;
            if (!next.object && !stack.empty() && stack.back().object) {
                const QByteArrayView member = stack.back().name;
                next.profiles = stack.size() == 1 && member == QByteArrayView("profiles");
                next.runs = stack.size() == 1 && member == QByteArrayView("runs");
                next.instructions = profileList.inEntry && member == QByteArrayView("instructions");
            }
            if (next.profiles) {
                if (profilesSeen)
                    return {}; // which one the parser keeps is its business
                profilesSeen = true;
                profileList.depth = qsizetype(stack.size()) + 1;
            }
            if (next.runs) {
                if (runsSeen)
                    return {}; // the same
                runsSeen = true;
                found.runs = RunListSpans{i, {}, false, 0};
                runList.depth = qsizetype(stack.size()) + 1;
            }
            if (stack.size() >= kMaxPrescanDepth)
                return stop();
            stack.push_back(next);
            ++i;
        } else if (c == '}' || c == ']') {
            if (stack.empty() || stack.back().object != (c == '}'))
                return stop(); // not JSON
            const PrescanContainer closed = stack.back();
            stack.pop_back();
            if (closed.profiles) {
                profileList.depth = -1;
            } else if (closed.runs) {
                runList.depth = -1;
                found.runs->closed = true;
                found.runs->restBegin =
                    found.runs->entries.empty() ? found.runs->open + 1 : found.runs->entries.back().end;
            }
            ++i;
            valueEnds(i);
        } else { // a number, true, false or null
            valueBegins(i);
            do
                ++i;
            while (i < size && !endsPrescanToken(data[i]));
            valueEnds(i);
        }
    }
    if (!stack.empty())
        return stop(); // truncated
    found.profiles = std::move(entries);
    return found;
}

// The run list's offsets in the bytes after each profile entry in `replaced` became `null`.
void shiftRunSpans(RunListSpans &runs, const std::vector<ProfileEntrySpan> &replaced)
{
    const auto shifted = [&replaced](qsizetype at) {
        qsizetype shift = 0;
        for (const ProfileEntrySpan &e : replaced)
            if (e.end <= at)
                shift += 4 - (e.end - e.begin);
        return at + shift;
    };
    runs.open = shifted(runs.open);
    runs.restBegin = shifted(runs.restBegin);
    for (RunListSpans::Entry &e : runs.entries)
        e = {shifted(e.begin), shifted(e.end)};
}

} // namespace

ProfilePrescan leaveOutOversizedProfiles(const QByteArray &bytes)
{
    PrescanFindings found = prescanFile(bytes);
    ProfilePrescan out{bytes, {}, std::move(found.runs)};
    if (!found.profiles)
        return out;
    QByteArray kept;
    qsizetype copied = 0;
    std::vector<ProfileEntrySpan> replaced;
    for (size_t index = 0; index < found.profiles->size(); ++index) {
        const ProfileEntrySpan &e = (*found.profiles)[index];
        if (e.instructions <= kMaxProfileInstructions)
            continue;
        out.leftOut.insert(qsizetype(index), tooManyInstructions(e.instructions));
        kept.append(bytes.constData() + copied, e.begin - copied);
        kept.append("null");
        copied = e.end;
        replaced.push_back(e);
    }
    if (out.leftOut.isEmpty())
        return out;
    kept.append(bytes.constData() + copied, bytes.size() - copied);
    out.bytes = kept;
    if (out.runs)
        shiftRunSpans(*out.runs, replaced);
    return out;
}

} // namespace gemmscope
