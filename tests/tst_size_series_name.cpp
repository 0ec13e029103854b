// A size sweep's series named as the results table names its runs: the code alone, or the code and
// the stage name joined as every view joins them (stage_names.h's " — "), never the preset's key.
#include "size_series_name.h"
#include "stage_catalog.h"
#include "stage_names.h"

#include <QtTest>

using namespace gemmscope;

class TestSizeSeriesName : public QObject {
    Q_OBJECT
private slots:
    void namedAsTheTableNamesTheRun()
    {
        const Preset *preset = findPreset("worklog-8");
        QVERIFY(preset);
        const SizeSeries series{preset->stage, preset->params, preset->key};
        const QString code = sizeSeriesName(series, SeriesNaming::Short);
        QCOMPARE(code, shortPresetLabel(QStringLiteral("worklog-8")));
        const QString full = sizeSeriesName(series, SeriesNaming::WithStageName);
        QCOMPARE(full, presetTitle(*preset));
        QVERIFY2(full.startsWith(code + QStringLiteral(" — ")), qPrintable(full));
        QVERIFY2(!full.contains(QStringLiteral("worklog-")), qPrintable(full));
    }

    void aLibraryIsNamedOnce()
    {
        const SizeSeries series{StageId::CublasFp32, {}, stageKeyText(StageId::CublasFp32).toStdString()};
        const QString full = sizeSeriesName(series, SeriesNaming::WithStageName);
        QVERIFY2(full.startsWith(QStringLiteral("cuBLAS FP32")), qPrintable(full));
        QVERIFY2(!full.contains(QStringLiteral(" — ")), qPrintable(full)); // "cuBLAS FP32 (pedantic ...)"
    }
};

QTEST_GUILESS_MAIN(TestSizeSeriesName)
#include "tst_size_series_name.moc"
