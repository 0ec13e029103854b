// The mark a table gives a measurement held against a model's figure (agreesWithModel): one look for
// "agrees" and "differs" wherever they are marked, so the access table and the against-cuBLAS
// table read alike.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace gemmscope {

inline QString agreementMarkHtml(bool agrees)
{
    return agrees ? QStringLiteral("<span style='color:#1a7f37'>&#10003; %1</span>")
                        .arg(QCoreApplication::translate("AgreementMark", "agrees"))
                  : QStringLiteral("<span style='color:#d62728'>&#10007; %1</span>")
                        .arg(QCoreApplication::translate("AgreementMark", "differs"));
}

} // namespace gemmscope
