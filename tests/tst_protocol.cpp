// The protocol codec against its contract: every JSON example in docs/protocol.md decodes into
// its typed request or event and encodes back to the same JSON, and the examples cover every
// request and event type. Plus the checks a typed read makes.
#include "events.h"
#include "requests.h"
#include "support/json_compare.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::protocol;

namespace {

// The top-level JSON objects of every ```json block of a Markdown text.
QList<QByteArray> jsonExamples(const QByteArray &markdown)
{
    QList<QByteArray> objects;
    const QList<QByteArray> lines = markdown.split('\n');
    bool inBlock = false;
    QByteArray block;
    for (const QByteArray &line : lines) {
        if (!inBlock && line.trimmed() == "```json") {
            inBlock = true;
            block.clear();
            continue;
        }
        if (inBlock && line.trimmed() == "```") {
            inBlock = false;
            int depth = 0, start = -1;
            bool inString = false, escaped = false;
            for (int i = 0; i < block.size(); ++i) {
                const char c = block[i];
                if (inString) {
                    escaped = !escaped && c == '\\';
                    if (c == '"' && !escaped && block[i - 1] != '\\')
                        inString = false;
                    continue;
                }
                if (c == '"')
                    inString = true;
                else if (c == '{' && depth++ == 0)
                    start = i;
                else if (c == '}' && --depth == 0)
                    objects.append(block.mid(start, i - start + 1));
            }
            continue;
        }
        if (inBlock)
            block += line + '\n';
    }
    return objects;
}

template <typename T> QJsonObject roundTrip(const QJsonObject &json, QString *error)
{
    T typed;
    if (!fromJson(json, typed, error))
        return {};
    return toJson(typed);
}

} // namespace

class TstProtocol : public QObject {
    Q_OBJECT

private:
    QList<QByteArray> m_examples;

private slots:
    void initTestCase()
    {
        QFile doc(QStringLiteral(GEMMSCOPE_SOURCE_DIR "/docs/protocol.md"));
        QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.fileName()));
        m_examples = jsonExamples(doc.readAll());
        QVERIFY(m_examples.size() >= 20);
    }

    void everyDocumentedExampleRoundTrips()
    {
        QSet<RequestType> requests;
        QSet<EventType> events;
        for (const QByteArray &text : m_examples) {
            QJsonParseError parseError{};
            const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
            QVERIFY2(doc.isObject(), qPrintable(parseError.errorString() + QStringLiteral(": ") + text));
            const QJsonObject json = doc.object();
            QString error;
            QJsonObject again;
            if (const auto type = requestTypeOf(json)) {
                requests.insert(*type);
                switch (*type) {
                case RequestType::Run:
                    again = roundTrip<RunJob>(json, &error);
                    break;
                case RequestType::Compile:
                    again = roundTrip<CompileJob>(json, &error);
                    break;
                case RequestType::TraceOwner:
                    again = roundTrip<TraceOwnerJob>(json, &error);
                    break;
                case RequestType::Disassemble:
                    again = roundTrip<DisassembleJob>(json, &error);
                    break;
                case RequestType::Ceilings:
                    again = roundTrip<CeilingsJob>(json, &error);
                    break;
                case RequestType::Profile:
                    again = roundTrip<ProfileJob>(json, &error);
                    break;
                case RequestType::Fault:
                    again = roundTrip<FaultJob>(json, &error);
                    break;
                case RequestType::Cancel:
                    again = roundTrip<CancelRequest>(json, &error);
                    break;
                case RequestType::Quit:
                    again = roundTrip<QuitRequest>(json, &error);
                    break;
                }
            } else if (const auto event = eventTypeOf(json)) {
                events.insert(*event);
                switch (*event) {
                case EventType::Ready:
                    again = roundTrip<ReadyEvent>(json, &error);
                    break;
                case EventType::Compiled:
                    again = roundTrip<CompiledInfo>(json, &error);
                    break;
                case EventType::Progress:
                    again = roundTrip<ProgressEvent>(json, &error);
                    break;
                case EventType::Result:
                    again = roundTrip<ResultEvent>(json, &error);
                    break;
                case EventType::Error:
                    again = roundTrip<ErrorEvent>(json, &error);
                    break;
                case EventType::Ceilings:
                    again = roundTrip<CeilingsEvent>(json, &error);
                    break;
                case EventType::OwnerMap:
                    again = roundTrip<OwnerMapEvent>(json, &error);
                    break;
                case EventType::Disassembly:
                    again = roundTrip<DisassemblyEvent>(json, &error);
                    break;
                case EventType::Profile:
                    again = roundTrip<ProfileEvent>(json, &error);
                    break;
                }
            } else if (json.keys() == QStringList{QStringLiteral("counters")}) {
                const QJsonObject counters = roundTrip<Counters>(json.value("counters").toObject(), &error);
                again = QJsonObject{{QStringLiteral("counters"), counters}};
            } else {
                QFAIL(qPrintable(QStringLiteral("an example that is neither request nor event: ") + text));
            }
            QVERIFY2(error.isEmpty(), qPrintable(error + QStringLiteral("\n") + text));
            QString where;
            QVERIFY2(
                sameJson(json, again, &where),
                qPrintable(QStringLiteral("differs at %1:\n%2\n%3")
                               .arg(where, QString::fromUtf8(text),
                                    QString::fromUtf8(QJsonDocument(again).toJson(QJsonDocument::Compact)))));
        }
        for (RequestType t :
             {RequestType::Run, RequestType::Compile, RequestType::TraceOwner, RequestType::Ceilings,
              RequestType::Profile, RequestType::Fault, RequestType::Cancel, RequestType::Quit})
            QVERIFY2(requests.contains(t),
                     qPrintable(requestTypeName(t) + QStringLiteral(" has no example")));
        for (EventType t :
             {EventType::Ready, EventType::Compiled, EventType::Progress, EventType::Result, EventType::Error,
              EventType::Ceilings, EventType::OwnerMap, EventType::Disassembly, EventType::Profile})
            QVERIFY2(events.contains(t), qPrintable(eventTypeName(t) + QStringLiteral(" has no example")));
    }

    void tablesSpellEachNameOnce()
    {
        for (RequestType t : jobTypes()) {
            QVERIFY(isJob(t));
            QCOMPARE(requestTypeFromName(requestTypeName(t)), std::optional<RequestType>(t));
        }
        QVERIFY(!isJob(RequestType::Cancel) && !isJob(RequestType::Quit));
        QCOMPARE(jobTypes().size(), 7);
        QCOMPARE(errorKindName(ErrorKind::DeviceFault), QStringLiteral("device_fault"));
        QCOMPARE(errorKindFromName(QStringLiteral("wrong_result")),
                 std::optional<ErrorKind>(ErrorKind::WrongResult));
        QVERIFY(!errorKindFromName(QStringLiteral("no_such_kind")));
        QCOMPARE(eventTypeFromName(QStringLiteral("owner_map")),
                 std::optional<EventType>(EventType::OwnerMap));
    }

    // Each enumerated value reads back from its one name; any other name, from a newer runner or
    // a damaged file, reads as Unknown (never as a known value, never a crash).
    void valuesReadBackFromTheirNames()
    {
        for (TimingRegime v : {TimingRegime::Burst, TimingRegime::Sustained})
            QCOMPARE(timingRegimeFromName(valueName(v)), v);
        for (StopReason v :
             {StopReason::Noise, StopReason::Budget, StopReason::MaxReps, StopReason::ClockDrop})
            QCOMPARE(stopReasonFromName(valueName(v)), v);
        for (ThrottleReason v : {ThrottleReason::PowerCap, ThrottleReason::Thermal,
                                 ThrottleReason::HwSlowdown, ThrottleReason::PowerBrake})
            QCOMPARE(throttleReasonFromName(valueName(v)), v);
        for (BuildKind v : {BuildKind::Release, BuildKind::ScalarShared})
            QCOMPARE(buildKindFromName(valueName(v)), v);
        for (Tf32Rounding v : {Tf32Rounding::Rna, Tf32Rounding::Truncate})
            QCOMPARE(tf32RoundingFromName(valueName(v)), v);
        for (TestDamage v : {TestDamage::SkipLaunch, TestDamage::CorruptElement})
            QCOMPARE(testDamageFromName(valueName(v)), v);
        QCOMPARE(valueName(ResourcesSource::CudaRuntime), QStringLiteral("cuda_runtime"));
        QCOMPARE(valueName(ClockSource::Nominal), QStringLiteral("nominal"));
        QCOMPARE(valueName(TimingRegime::Sustained), QStringLiteral("sustained"));
        QCOMPARE(valueName(ThrottleReason::PowerCap), QStringLiteral("power_cap"));
        QCOMPARE(timingRegimeFromName(QStringLiteral("warm")), TimingRegime::Unknown);
        QCOMPARE(timingRegimeFromName(QStringLiteral("Burst")), TimingRegime::Unknown);
        QCOMPARE(stopReasonFromName(QString()), StopReason::None);
        QCOMPARE(stopReasonFromName(QStringLiteral("boredom")), StopReason::Unknown);
        QCOMPARE(throttleReasonFromName(QStringLiteral("sync_boost")), ThrottleReason::Unknown);
        QCOMPARE(buildKindFromName(QStringLiteral("fast")), BuildKind::Unknown);
        QCOMPARE(tf32RoundingFromName(QStringLiteral("<b>rna</b>")), Tf32Rounding::Unknown);
        QCOMPARE(testDamageFromName(QString()), TestDamage::Unknown);
        QVERIFY(valueName(TimingRegime::Unknown).isEmpty());
        QCOMPARE(quotedNames(timingRegimeNames()), QStringLiteral("\"burst\" or \"sustained\""));
    }

    // A reason a newer runner adds is not a damaged result: it reads as Unknown, and the rest of
    // the conditions stand.
    void anUnknownThrottleReasonIsKeptAsUnknown()
    {
        const QJsonObject conditions{{"regime", "sustained"},
                                     {"samples", 5},
                                     {"throttled_samples", 0},
                                     {"max_noise_pct", 0.5},
                                     {"throttle_threshold_pct", 90},
                                     {"stopped_by", "clock_drop"},
                                     {"throttle_reasons", QJsonArray{"thermal", "sync_boost"}}};
        RunConditions c;
        QString error;
        QVERIFY2(fromJson(conditions, c, &error), qPrintable(error));
        QCOMPARE(c.regime, TimingRegime::Sustained);
        QCOMPARE(c.stoppedBy, StopReason::ClockDrop);
        QCOMPARE(c.throttleReasons,
                 (QList<ThrottleReason>{ThrottleReason::Thermal, ThrottleReason::Unknown}));
    }

    // Progress phases and occupancy limiters are read once, where the event is decoded: every
    // known name to its value and back, a newer runner's name to Unknown (the event still reads).
    void phasesAndLimitersAreDecodedOnce()
    {
        for (int i = 0; i < int(ProgressPhase::Unknown); ++i) {
            const auto phase = ProgressPhase(i);
            QVERIFY2(!valueName(phase).isEmpty(), qPrintable(QString::number(i)));
            QCOMPARE(progressPhaseFromName(valueName(phase)), phase);
        }
        for (int i = 0; i < int(OccupancyLimiter::Unknown); ++i) {
            const auto limiter = OccupancyLimiter(i);
            QCOMPARE(occupancyLimiterFromName(valueName(limiter)), std::optional<OccupancyLimiter>(limiter));
        }
        QCOMPARE(valueName(ProgressPhase::LoadWarmup), QStringLiteral("load_warmup"));
        QCOMPARE(valueName(OccupancyLimiter::SharedMemory), QStringLiteral("shared_memory"));
        QCOMPARE(profilePartNames(), (QStringList{"stalls", "instructions", "limiters"}));

        ProgressEvent progress;
        QString error;
        QVERIFY2(fromJson(QJsonObject{{"event", "progress"}, {"id", "r1"}, {"phase", "defrag"}, {"done", 1}},
                          progress, &error),
                 qPrintable(error));
        QCOMPARE(progress.phase, ProgressPhase::Unknown);
        QCOMPARE(progress.done, 1);
        QVERIFY(
            fromJson(QJsonObject{{"event", "progress"}, {"id", "r1"}, {"phase", "load_warmup"}}, progress));
        QCOMPARE(progress.phase, ProgressPhase::LoadWarmup);
        QCOMPARE(toJson(progress).value("phase").toString(), QStringLiteral("load_warmup"));

        const QJsonObject occupancy{{"blocks_per_sm", 2}, {"fraction", 0.25}, {"limiter", "tensor_cores"}};
        CompiledInfo compiled;
        QVERIFY2(fromJson(QJsonObject{{"event", "compiled"}, {"id", "c"}, {"occupancy", occupancy}}, compiled,
                          &error),
                 qPrintable(error));
        QVERIFY(compiled.occupancy);
        QCOMPARE(compiled.occupancy->limiter, std::optional<OccupancyLimiter>(OccupancyLimiter::Unknown));
        QCOMPARE(compiled.occupancy->blocksPerSm, 2);
        QCOMPARE(occupancyLimiterFromName(QString()), std::nullopt);
        QCOMPARE(occupancyLimiterFromName(QStringLiteral("Registers")), OccupancyLimiter::Unknown);
    }

    void typedReadNamesTheWrongField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("params not ints")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","params":{"BX":"x"}})")
            << "Parameter BX must be an integer.";
        QTest::newRow("seed not a number")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"seed":"1"})")
            << "Field \"seed\" must be an integer.";
        QTest::newRow("size not integral")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","size":{"m":1.5,"n":1,"k":1}})")
            << "In \"size\": Field \"m\" must be an integer.";
        QTest::newRow("timing flag")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"timing":{"flush_l2":1}})")
            << "In \"timing\": Field \"flush_l2\" must be true or false.";
        QTest::newRow("another type") << QByteArray(R"({"type":"compile","id":"a","stage":"naive"})")
                                      << "The request is not a \"run\" request.";
        // The runner answers these sentences as protocol_error (it reads requests only through here).
        QTest::newRow("no stage") << QByteArray(R"({"type":"run","id":"a","size":{"m":1,"n":1,"k":1}})")
                                  << "Field \"stage\" is missing.";
        QTest::newRow("no size") << QByteArray(R"({"type":"run","id":"a","stage":"naive"})")
                                 << "Field \"size\" must be an object {\"m\":..,\"n\":..,\"k\":..}.";
        QTest::newRow("size without k")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1}})")
            << "Field \"size.k\" is missing.";
        QTest::newRow("params not an object")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","params":[16],"size":{"m":1,"n":1,"k":1}})")
            << "Field \"params\" must be an object of integers.";
        QTest::newRow("block limit out of range")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"max_blocks_per_sm":0})")
            << "Field \"max_blocks_per_sm\" must be a whole number from 1 to 1024.";
        QTest::newRow("block limit null")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"max_blocks_per_sm":null})")
            << "Field \"max_blocks_per_sm\" must be a whole number from 1 to 1024.";
        QTest::newRow("carveout not whole")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"smem_carveout":50.5})")
            << "Field \"smem_carveout\" must be a whole number from 0 to 100.";
        QTest::newRow("build not a string")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"build":5})")
            << "Field \"build\" must be a string, \"release\" or \"scalar_shared\".";
        // A whole number too large is out of range, with the limit, not "not an integer".
        QTest::newRow("seed past 2^53")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","size":{"m":1,"n":1,"k":1},"seed":1e300})")
            << "Field \"seed\" is out of range (max 9007199254740992).";
        QTest::newRow("parameter INT_MAX")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","params":{"BM":2147483647},"size":{"m":1,"n":1,"k":1}})")
            << "Parameter BM is out of range (max 1000000000).";
        QTest::newRow("parameter -INT_MAX")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","params":{"BM":-2147483648},"size":{"m":1,"n":1,"k":1}})")
            << "Parameter BM is out of range (min -1000000000).";
        QTest::newRow("parameter half")
            << QByteArray(
                   R"({"type":"run","id":"a","stage":"naive","params":{"BM":2.5},"size":{"m":1,"n":1,"k":1}})")
            << "Parameter BM must be an integer.";
        QTest::newRow("size past 2^53")
            << QByteArray(R"({"type":"run","id":"a","stage":"naive","size":{"m":1e20,"n":1,"k":1}})")
            << "In \"size\": Field \"m\" is out of range (max 9007199254740992).";
    }
    void typedReadNamesTheWrongField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        RunJob job;
        QString error;
        QVERIFY(!fromJson(QJsonDocument::fromJson(json).object(), job, &error));
        QCOMPARE(error, expected);
    }

    // A profile request names its parts and sampling period within the documented sets.
    void profileRequestRefusesWhatItCannotDo_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        const QByteArray head =
            R"({"type":"profile","id":"p","stage":"final","size":{"m":64,"n":64,"k":64},)";
        QTest::newRow("unknown part") << head + R"("parts":["stalls","time"]})"
                                      << "Field \"parts\" must list only stalls, instructions, limiters.";
        QTest::newRow("period too short") << head + R"("sampling_period":4})"
                                          << "Field \"sampling_period\" must be a whole number from 5 to 31.";
        QTest::newRow("period too long") << head + R"("sampling_period":32})"
                                         << "Field \"sampling_period\" must be a whole number from 5 to 31.";
        QTest::newRow("no size") << QByteArray(R"({"type":"profile","id":"p","stage":"final"})")
                                 << "Field \"size\" must be an object {\"m\":..,\"n\":..,\"k\":..}.";
    }
    void profileRequestRefusesWhatItCannotDo()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        ProfileJob job;
        QString error;
        QVERIFY(!fromJson(QJsonDocument::fromJson(json).object(), job, &error));
        QCOMPARE(error, expected);
    }

    void profileEventNamesAStallCountThatIsNotANumber()
    {
        const QByteArray line =
            R"({"event":"profile","id":"p","stage":"final","instructions":[{"function":"f","pc":16,"stalls":{"barrier":"<b>9</b>"}}]})";
        ProfileEvent event;
        QString error;
        QVERIFY(!fromJson(QJsonDocument::fromJson(line).object(), event, &error));
        QCOMPARE(error,
                 QStringLiteral(
                     "In \"instructions\": Field \"stalls\" must hold only numbers (\"barrier\" does not)."));
        QCOMPARE(event.instructions.size(), 1);
        QVERIFY(event.instructions.first().stalls.isEmpty());
    }

    void ceilingsTf32IsOptional()
    {
        // An event from a runner before the TF32 roof reads as "not measured", and writes nothing back.
        const QJsonObject old{{"event", "ceilings"}, {"id", "x"},      {"fma_tflops", 64.2},
                              {"dram_gbs", 4100.0},  {"cached", true}, {"measured_at", "2026-11-29"}};
        CeilingsEvent e;
        QString error;
        QVERIFY2(fromJson(old, e, &error), qPrintable(error));
        QVERIFY(!e.tf32Tflops);
        QVERIFY(e.tf32Kernel.isEmpty() && e.tf32Unavailable.isEmpty());
        QVERIFY(!toJson(e).contains(QStringLiteral("tf32_tflops")));
        QJsonObject withTf32 = old;
        withTf32.insert(QStringLiteral("tf32_tflops"), 330.0);
        withTf32.insert(QStringLiteral("tf32_kernel"), QStringLiteral("mma.sync.m16n8k8.tf32"));
        QVERIFY2(fromJson(withTf32, e, &error), qPrintable(error));
        QCOMPARE(e.tf32Tflops, std::optional<double>(330.0));
        QCOMPARE(e.tf32Kernel, QStringLiteral("mma.sync.m16n8k8.tf32"));
        // A wrong type is refused with the field's name.
        withTf32.insert(QStringLiteral("tf32_tflops"), QStringLiteral("fast"));
        QVERIFY(!fromJson(withTf32, e, &error));
        QVERIFY2(error.contains(QStringLiteral("tf32_tflops")), qPrintable(error));
    }

    // The hierarchical roofline's L2 and shared-memory bandwidths: absent from older runners and
    // caches (read as "not measured", written back without them), kept exactly when present.
    void ceilingsMemoryLevelsAreOptional()
    {
        const QJsonObject old{{"event", "ceilings"},  {"id", "x"},
                              {"fma_tflops", 64.2},   {"dram_gbs", 4100.0},
                              {"cached", true},       {"measured_at", "2026-11-29"},
                              {"tf32_tflops", 470.0}, {"tf32_kernel", "wgmma.m64n256k8.tf32"}};
        CeilingsEvent e;
        QString error;
        QVERIFY2(fromJson(old, e, &error), qPrintable(error));
        QVERIFY(!e.l2Gbs && !e.sharedGbs);
        QVERIFY(!toJson(e).contains(QStringLiteral("l2_gbs")) &&
                !toJson(e).contains(QStringLiteral("shared_gbs")));
        QJsonObject levels = old;
        levels.insert(QStringLiteral("l2_gbs"), 10250.5);
        levels.insert(QStringLiteral("shared_gbs"), 33100.25);
        QVERIFY2(fromJson(levels, e, &error), qPrintable(error));
        QCOMPARE(e.l2Gbs, std::optional<double>(10250.5));
        QCOMPARE(e.sharedGbs, std::optional<double>(33100.25));
        QCOMPARE(toJson(e).value(QStringLiteral("l2_gbs")).toDouble(), 10250.5);
        QCOMPARE(toJson(e).value(QStringLiteral("shared_gbs")).toDouble(), 33100.25);
        levels.insert(QStringLiteral("shared_gbs"), QStringLiteral("fast"));
        QVERIFY(!fromJson(levels, e, &error));
        QVERIFY2(error.contains(QStringLiteral("shared_gbs")), qPrintable(error));
    }

    // A run's L1 and shared bytes and its L1/shared intensity: counters recorded before them stay
    // valid and are written back as they were; new ones round-trip, null intensity included.
    void countersL1SharedLevelIsOptional()
    {
        const QJsonObject old{{"dram_read_bytes", 3.1e9}, {"dram_write_bytes", 2.4e8},
                              {"l2_bytes", 5.5e10},       {"ffma_thread_inst", 4.5e11},
                              {"flops", 9.06e11},         {"dram_intensity", 270.9},
                              {"l2_intensity", 16.5},     {"kernels", 1},
                              {"metrics", QJsonObject{}}};
        Counters c;
        QString error;
        QVERIFY2(fromJson(old, c, &error), qPrintable(error));
        QVERIFY(!c.l1Bytes && !c.sharedBytes && !c.l1Intensity);
        QCOMPARE(toJson(c), old);
        QJsonObject levels = old;
        levels.insert(QStringLiteral("l1_bytes"), 6.0e10);
        levels.insert(QStringLiteral("shared_bytes"), 9.0e11);
        levels.insert(QStringLiteral("l1_intensity"), 0.943);
        QVERIFY2(fromJson(levels, c, &error), qPrintable(error));
        QCOMPARE(c.l1Bytes, std::optional<double>(6.0e10));
        QCOMPARE(c.sharedBytes, std::optional<double>(9.0e11));
        QCOMPARE(c.l1Intensity, std::optional<double>(0.943));
        QCOMPARE(toJson(c), levels);
        levels.insert(QStringLiteral("l1_bytes"), 0.0); // nothing moved at the level: null intensity
        levels.insert(QStringLiteral("shared_bytes"), 0.0);
        levels.insert(QStringLiteral("l1_intensity"), QJsonValue::Null);
        QVERIFY2(fromJson(levels, c, &error), qPrintable(error));
        QVERIFY(!c.l1Intensity);
        QCOMPARE(toJson(c), levels);
        levels.insert(QStringLiteral("l1_intensity"), QStringLiteral("high"));
        QVERIFY(!fromJson(levels, c, &error));
        QVERIFY2(error.contains(QStringLiteral("l1_intensity")), qPrintable(error));
    }

    // Each optional field of a result (and of its compiled part) survives decoding and encoding:
    // present with its JSON type, null where the protocol sends null, absent where it was absent.
    void resultFieldsRoundTrip_data()
    {
        QTest::addColumn<QString>("path"); // where the field goes: "key" or "compiled/key"
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("seed") << "seed" << QJsonValue(7);
        QTest::newRow("build") << "build" << QJsonValue("debug");
        QTest::newRow("max_blocks_per_sm") << "max_blocks_per_sm" << QJsonValue(2);
        QTest::newRow("smem_carveout") << "smem_carveout" << QJsonValue(0);
        QTest::newRow("sm_clock_mhz") << "sm_clock_mhz" << QJsonValue(1980);
        QTest::newRow("sm_clock_source") << "sm_clock_source" << QJsonValue("nominal");
        QTest::newRow("timestamp") << "timestamp" << QJsonValue("2026-11-30T22:12:30Z");
        QTest::newRow("tflops") << "tflops" << QJsonValue(46.3);
        QTest::newRow("compiled cache_hit") << "compiled/cache_hit" << QJsonValue(true);
        QTest::newRow("compiled compiled_ahead") << "compiled/compiled_ahead" << QJsonValue(false);
        QTest::newRow("compiled compile_wait_ms") << "compiled/compile_wait_ms" << QJsonValue(0.0275);
        QTest::newRow("compiled smem_carveout") << "compiled/smem_carveout" << QJsonValue(100);
        QTest::newRow("compiled cubin_bytes") << "compiled/cubin_bytes" << QJsonValue(68752);
        // wgmma_tma_tf32 at 256 x 128 x 4 stages: the tiles, 1 KiB of alignment and 8 mbarriers.
        QTest::newRow("compiled dynamic_smem_bytes") << "compiled/dynamic_smem_bytes" << QJsonValue(197696);
        QTest::newRow("compiled lowered_name")
            << "compiled/lowered_name" << QJsonValue("_ZN9gemmscope5naiveEv");
        QTest::newRow("compiled resources_source")
            << "compiled/resources_source" << QJsonValue("cuda_runtime");
        QTest::newRow("compiled resources_source null") << "compiled/resources_source" << QJsonValue();
        QTest::newRow("compiled occupancy_note")
            << "compiled/occupancy_note" << QJsonValue("Unknown: no report.");
        // How steady the GPU was, and an interleaved cuBLAS baseline.
        const QJsonObject conditions{{"regime", "burst"},
                                     {"samples", 57},
                                     {"throttled_samples", 3},
                                     {"noise_pct", 0.31},
                                     {"max_noise_pct", 0.5},
                                     {"throttle_threshold_pct", 90},
                                     {"stopped_by", "noise"},
                                     {"sm_clock_start_mhz", 1980},
                                     {"sm_clock_min_mhz", 1605.5},
                                     {"sm_clock_median_mhz", 1975},
                                     {"power_max_w", 699.2},
                                     {"power_limit_w", 700},
                                     {"throttle_reasons", QJsonArray{"power_cap"}},
                                     {"temperature_start_c", 41},
                                     {"temperature_end_c", 47},
                                     {"cooldown_ms", 120.5}};
        QTest::newRow("conditions") << "conditions" << QJsonValue(conditions);
        QJsonObject sustained = conditions;
        sustained.insert("regime", "sustained");
        sustained.remove("cooldown_ms");
        sustained.insert("load_warmup_ms", 2200);
        sustained.insert("all_throttled", true);
        sustained.insert("cooled", false);
        QTest::newRow("conditions sustained") << "conditions" << QJsonValue(sustained);
        QJsonObject noTelemetry{{"regime", "burst"},
                                {"samples", 5},
                                {"throttled_samples", 0},
                                {"max_noise_pct", 0.5},
                                {"throttle_threshold_pct", 0},
                                {"stopped_by", "budget"},
                                {"throttle_reasons", QJsonArray{}},
                                {"telemetry_unavailable", "No NVML here."}};
        QTest::newRow("conditions without telemetry") << "conditions" << QJsonValue(noTelemetry);
        QJsonObject bursts = conditions; // five bursts, each from an idle GPU; the fourth reported
        bursts.insert("bursts", 5);
        bursts.insert("chosen_burst", 3);
        bursts.insert("burst_medians_ms", QJsonArray{0.357, 0.359, 0.382, 0.356, 0.36});
        QTest::newRow("conditions of several bursts") << "conditions" << QJsonValue(bursts);
        QTest::newRow("baseline") << "baseline"
                                  << QJsonValue(QJsonObject{{"stage", "cublas_tf32"},
                                                            {"timing", QJsonObject{{"median_ms", 0.31},
                                                                                   {"p20_ms", 0.30},
                                                                                   {"p80_ms", 0.32},
                                                                                   {"min_ms", 0.29},
                                                                                   {"count", 40},
                                                                                   {"warmup", 2},
                                                                                   {"budget_ms", 1000},
                                                                                   {"flush_l2", false}}},
                                                            {"conditions", conditions}});
    }

    void damagedConditionsAreRefusedByName_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("regime") << "regime" << QJsonValue("warm") << "\"regime\"";
        QTest::newRow("stopped_by") << "stopped_by" << QJsonValue("boredom") << "\"stopped_by\"";
        QTest::newRow("more throttled than samples")
            << "throttled_samples" << QJsonValue(9) << "\"throttled_samples\"";
        QTest::newRow("negative samples") << "samples" << QJsonValue(-1) << "\"samples\"";
        QTest::newRow("reasons not strings")
            << "throttle_reasons" << QJsonValue(QJsonArray{1}) << "\"throttle_reasons\"";
        QTest::newRow("noise a string") << "noise_pct" << QJsonValue("low") << "\"noise_pct\"";
        QTest::newRow("no bursts") << "bursts" << QJsonValue(0) << "\"bursts\"";
        QTest::newRow("chosen burst not timed") << "chosen_burst" << QJsonValue(2) << "\"chosen_burst\"";
        QTest::newRow("burst medians not times")
            << "burst_medians_ms" << QJsonValue(QJsonArray{0.36, "slow"}) << "\"burst_medians_ms\"";
    }
    void damagedConditionsAreRefusedByName()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, mentions);
        QJsonObject conditions{{"regime", "burst"},
                               {"samples", 5},
                               {"throttled_samples", 0},
                               {"max_noise_pct", 0.5},
                               {"throttle_threshold_pct", 90},
                               {"stopped_by", "noise"}};
        conditions.insert(key, value);
        const QJsonObject result{
            {"event", "result"}, {"id", "r1"}, {"stage", "naive"}, {"conditions", conditions}};
        ResultEvent e;
        QString error;
        QVERIFY(!fromJson(result, e, &error));
        QVERIFY2(error.startsWith(QStringLiteral("In \"conditions\": ")) && error.contains(mentions),
                 qPrintable(error));
    }
    void resultFieldsRoundTrip()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        const QJsonObject compiled{{"stage", "naive"},          {"kernel", "gemmscope::naive"},
                                   {"arch", "sm_90"},           {"cache_hit", false},
                                   {"compile_ms", 1.5},         {"registers", 40},
                                   {"spill_store_bytes", 0},    {"spill_load_bytes", 0},
                                   {"stack_frame_bytes", 0},    {"static_smem_bytes", 0},
                                   {"occupancy", QJsonValue()}, {"ptxas_log", ""}};
        const QJsonObject base{
            {"event", "result"},
            {"id", "r1"},
            {"stage", "naive"},
            {"params", QJsonObject{}},
            {"size", QJsonObject{{"m", 64}, {"n", 64}, {"k", 64}}},
            {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}}},
            {"timing", QJsonObject{{"median_ms", 1.0},
                                   {"p20_ms", 0.9},
                                   {"p80_ms", 1.1},
                                   {"min_ms", 0.8},
                                   {"count", 5},
                                   {"warmup", 2},
                                   {"budget_ms", 1000},
                                   {"flush_l2", false}}},
            {"verify",
             QJsonObject{{"reference", "cublas_fp32_pedantic"}, {"skipped", true}, {"passed", QJsonValue()}}},
            {"compiled", compiled}};
        for (bool present : {false, true}) {
            QJsonObject json = base;
            if (present) {
                if (path.startsWith(QLatin1String("compiled/"))) {
                    QJsonObject c = compiled;
                    c.insert(path.mid(9), value);
                    json.insert("compiled", c);
                } else {
                    json.insert(path, value);
                }
            }
            QString error;
            const QJsonObject again = roundTrip<ResultEvent>(json, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QString where;
            QVERIFY2(
                sameJson(json, again, &where),
                qPrintable(
                    QStringLiteral("%1 %2: differs at %3").arg(path, present ? "present" : "absent", where)));
            const QJsonObject holder =
                path.startsWith(QLatin1String("compiled/")) ? again.value("compiled").toObject() : again;
            const QString key = path.section(QLatin1Char('/'), -1);
            if (key != QLatin1String("cache_hit")) // always sent: false when absent
                QCOMPARE(holder.contains(key), present);
            if (present)
                QCOMPARE(holder.value(key).type(), value.type());
        }
    }

    // Every result event recorded in tests/data/recorded/ (benches, sweeps, sessions) decodes and encodes
    // back unchanged.
    void recordedResultsRoundTrip()
    {
        QDirIterator it(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded"), {QStringLiteral("*.json")},
                        QDir::Files, QDirIterator::Subdirectories);
        int results = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QList<QJsonValue> pending{QJsonDocument::fromJson(file.readAll()).object()};
            while (!pending.isEmpty()) {
                const QJsonValue v = pending.takeLast();
                if (v.isArray()) {
                    for (const QJsonValue &item : v.toArray())
                        pending.append(item);
                    continue;
                }
                const QJsonObject o = v.toObject();
                if (o.value("event").toString() != QLatin1String("result")) {
                    for (const QJsonValue &child : o)
                        if (child.isObject() || child.isArray())
                            pending.append(child);
                    continue;
                }
                QString error, where;
                const QJsonObject again = roundTrip<ResultEvent>(o, &error);
                QVERIFY2(error.isEmpty(), qPrintable(path + QStringLiteral(": ") + error));
                QVERIFY2(sameJson(o, again, &where),
                         qPrintable(QStringLiteral("%1 (%2): differs at %3").arg(path, eventIdOf(o), where)));
                ++results;
            }
        }
        QVERIFY2(results >= 1000, qPrintable(QString::number(results)));
    }

    void absentOptionalFieldsStayAbsent()
    {
        RunJob job;
        job.id = QStringLiteral("r1");
        job.stage = QStringLiteral("cublas_fp32");
        job.size = ProblemSize{64, 64, 64};
        const QJsonObject json = toJson(job);
        QCOMPARE(json.keys(), (QStringList{"id", "size", "stage", "type"}));
        RunJob back;
        QVERIFY(fromJson(json, back));
        QCOMPARE(back, job);
    }
};

QTEST_APPLESS_MAIN(TstProtocol)
#include "tst_protocol.moc"
