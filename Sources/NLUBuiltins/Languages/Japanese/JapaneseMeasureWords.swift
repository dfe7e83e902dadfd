/// Japanese units of age and dimension (Recognizers-Text's Japanese AgeModel and DimensionModel specs, read for their
/// meaning): "29歳", "10ヶ月", "3週間", "90日齢", "75ミリリットル", "0.9兆立方フィート", "1万6千メートルトン",
/// "時速188マイル", "毎秒23メートル"; units named as those specs name them ("Year", "Cubic foot", "Metric ton").
enum JapaneseMeasureWords {
    static func add(to units: inout CJKUnits) {
        units.measures = CJKUnits.measures(
            ages: [("歳", "Year"), ("才", "Year"), ("日齢", "Day"), ("週齢", "Week"), ("ヶ月齢", "Month"), ("か月齢", "Month")],
            durationAges: [("ヶ月", "Month"), ("か月", "Month"), ("カ月", "Month"), ("週間", "Week")],
            dimensions: [
                ("平方キロメートル", "Square kilometer"), ("平方メートル", "Square meter"), ("平方センチメートル", "Square centimeter"),
                ("平方フィート", "Square foot"), ("平方マイル", "Square mile"), ("立方メートル", "Cubic meter"), ("立方フィート", "Cubic foot"),
                ("エーカー", "Acre"), ("ヘクタール", "Hectare"), ("ムー", "Mu"),
                ("キロメートル", "Kilometer"), ("キロ", "Kilometer"), ("km", "Kilometer"), ("メートルトン", "Metric ton"),
                ("メートル", "Meter"), ("デシメートル", "Decimeter"), ("センチメートル", "Centimeter"), ("センチ", "Centimeter"),
                ("cm", "Centimeter"), ("ミリメートル", "Millimeter"), ("ミリリットル", "Milliliter"), ("ミリ", "Millimeter"),
                ("mm", "Millimeter"), ("マイクロメートル", "Micrometer"), ("ナノメートル", "Nanometer"), ("ピコメートル", "Picometer"),
                ("ピクトメーター", "Picometer"), ("マイル", "Mile"), ("フィート", "Foot"), ("インチ", "Inch"), ("ヤード", "Yard"),
                ("リットル", "Liter"), ("ガロン", "Gallon"), ("キログラム", "Kilogram"), ("kg", "Kilogram"), ("グラム", "Gram"),
                ("ミリグラム", "Milligram"), ("トン", "Ton"), ("ポンド", "Pound"), ("オンス", "Ounce"), ("ビット", "Bit"),
                ("バイト", "Byte"), ("キロバイト", "Kilobyte"), ("メガバイト", "Megabyte"), ("ギガバイト", "Gigabyte"),
                ("テラバイト", "Terabyte"),
            ])
        units.speedPrefixes = [(CJKNumerals.word("時速"), "hour"), (CJKNumerals.word("秒速"), "second"), (CJKNumerals.word("毎秒"), "second")]
    }
}
