/// Chinese units of age and dimension (Recognizers-Text's Chinese AgeModel and DimensionModel specs, read for their
/// meaning): "29岁", "七周岁", "十个月大", "90天大", "168公分", "20万公斤", "一吨半", "387万亩", "2.4微克", "三十两", "100赫兹",
/// "一百千瓦", "323千卡"; units named as those specs name them ("Year", "Centimeter", "Jin", "Mu", "Liang", "Kilowatt").
/// Frequency, power and energy are commented out of the .NET table, but its spec lists them under those names.
enum ChineseMeasureWords {
    static func add(to units: inout CJKUnits) {
        units.measures = CJKUnits.measures(
            ages: [("周岁", "Year"), ("週歲", "Year"), ("岁", "Year"), ("歲", "Year"), ("个月大", "Month"), ("個月大", "Month"),
                   ("月大", "Month"), ("周大", "Week"), ("週大", "Week"), ("星期大", "Week"), ("天大", "Day")],
            dimensions: [
                ("平方公里", "Square kilometer"), ("平方千米", "Square kilometer"), ("平方米", "Square meter"), ("平方厘米", "Square centimeter"),
                ("立方米", "Cubic meter"), ("立方厘米", "Cubic centimeter"), ("公顷", "Hectare"), ("亩", "Mu"), ("畝", "Mu"),
                ("公里", "Kilometer"), ("千米", "Kilometer"), ("km", "Kilometer"), ("公尺", "Meter"), ("米", "Meter"), ("m", "Meter"),
                ("分米", "Decimeter"), ("厘米", "Centimeter"), ("公分", "Centimeter"), ("cm", "Centimeter"), ("毫米", "Millimeter"),
                ("mm", "Millimeter"), ("微米", "Micrometer"), ("纳米", "Nanometer"), ("納米", "Nanometer"), ("英里", "Mile"),
                ("英尺", "Foot"), ("英寸", "Inch"), ("码", "Yard"), ("碼", "Yard"), ("海里", "Nautical mile"),
                ("毫升", "Milliliter"), ("ml", "Milliliter"), ("升", "Liter"), ("加仑", "Gallon"), ("加侖", "Gallon"),
                ("千克", "Kilogram"), ("公斤", "Kilogram"), ("kg", "Kilogram"), ("毫克", "Milligram"), ("微克", "Microgram"),
                ("克", "Gram"), ("公吨", "Ton"), ("吨", "Ton"), ("噸", "Ton"), ("斤", "Jin"), ("磅", "Pound"), ("盎司", "Ounce"),
                ("比特", "Bit"), ("千比特", "Kilobit"), ("兆比特", "Megabit"), ("字节", "Byte"), ("千字节", "Kilobyte"),
                ("兆字节", "Megabyte"), ("位元组", "Byte"), ("两", "Liang"),
                ("赫兹", "Hertz"), ("赫", "Hertz"), ("千赫兹", "Kilohertz"), ("千赫", "Kilohertz"), ("兆赫兹", "Megahertz"),
                ("兆赫", "Megahertz"), ("瓦特", "Watt"), ("瓦", "Watt"), ("千瓦特", "Kilowatt"), ("千瓦", "Kilowatt"),
                ("兆瓦", "Megawatt"), ("卡路里", "Calorie"), ("千卡", "Kilocalorie"), ("千卡路里", "Kilocalorie"),
                // "大卡" is the everyday name of the kilocalorie on food labels, not of the calorie.
                ("大卡", "Kilocalorie"), ("kcal", "Kilocalorie"),
            ])
        // "三十两": the number reader takes a 两 after a numeral for "two" of the next lower place (32).
        units.numeralUnit = "两"
        units.speedPrefixes = [(CJKNumerals.word("时速"), "hour"), (CJKNumerals.word("時速"), "hour"), (CJKNumerals.word("秒速"), "second")]
        units.half = CJKNumerals.word("半")
        units.unitPrefixNumerals = ["千": 1000, "兆": 1_000_000_000_000]
    }
}
