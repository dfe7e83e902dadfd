/// English units of age and dimension (Recognizers-Text's English AgeModel and DimensionModel specs, read for their
/// meaning): "five years old", "eighteen months of age", "age 87", "3-inch", "660 square meters", "10km/hr",
/// "2.4 billion gallons", "100 MB"; units named as those specs name them ("Year", "Square meter", "Kilometer per hour").
/// A lower-case "b" is a bit and an upper-case "B" a byte ("100 mb" megabits, "100 MB" megabytes), as the specs read it.
enum EnglishMeasureWords {
    static let lexicon: UnitLexicon = {
        var units = UnitLexicon()
        for (name, unit) in [("Year", "year"), ("Month", "month"), ("Week", "week"), ("Day", "day")] {
            units.age(name, ["\(unit)s old", "\(unit) old", "\(unit)-old", "\(unit)s-old", "\(unit)s of age", "\(unit) of age"])
        }
        units.age("Year", ["yo", "y/o", "yrs old", "yr old"])
        units.age("Age", prefix: true, ["age", "aged"])

        // Length.
        units.dimension("Kilometer", ["km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"])
        units.dimension("Hectometer", ["hm", "hectometer", "hectometers", "hectometre", "hectometres"])
        units.dimension("Decameter", ["dam", "decameter", "decameters", "decametre", "decametres"])
        units.dimension("Meter", ["meter", "meters", "metre", "metres"])
        // "1.8M" is millions.
        units.dimension("Meter", caseSensitive: true, ["m"])
        units.dimension("Decimeter", ["dm", "decimeter", "decimeters", "decimetre", "decimetres"])
        units.dimension("Centimeter", ["cm", "centimeter", "centimeters", "centimetre", "centimetres"])
        units.dimension("Millimeter", ["mm", "millimeter", "millimeters", "millimetre", "millimetres"])
        units.dimension("Micrometer", ["μm", "µm", "micrometer", "micrometers", "micrometre", "micrometres", "micron", "microns"])
        units.dimension("Nanometer", ["nm", "nanometer", "nanometers", "nanometre", "nanometres"])
        units.dimension("Picometer", ambiguous: ["pm"], ["pm", "picometer", "picometers", "picometre", "picometres"])
        units.dimension("Mile", ["mi", "mile", "miles"])
        units.dimension("Yard", ["yd", "yds", "yard", "yards"])
        units.dimension("Foot", ["ft", "foot", "feet"])
        units.dimension("Inch", ambiguous: ["in", "\""], ["in", "inch", "inches", "\""])
        // "5 ft 2 in", "6'2\"": one length in feet.
        units.twoPartLengths = [UnitLexicon.TwoPartLength(larger: "Foot", smaller: "Inch", perLarger: 12, largerMarks: ["'", "′", "’"],
                                                          smallerMarks: ["\"", "″", "”"])]
        units.twoPartJoiners = ["and"]
        units.dimension("Light year", ["light year", "light years", "light-year", "light-years"])
        // Area.
        for (name, short, long) in [("kilometer", "km", ["kilometer", "kilometre"]), ("hectometer", "hm", ["hectometer", "hectometre"]),
                                    ("meter", "m", ["meter", "metre"]), ("decimeter", "dm", ["decimeter", "decimetre"]),
                                    ("centimeter", "cm", ["centimeter", "centimetre"]), ("millimeter", "mm", ["millimeter", "millimetre"]),
                                    ("inch", "in", ["inch"]), ("foot", "ft", ["foot", "feet"]), ("mile", "mi", ["mile"]), ("yard", "yd", ["yard"])] {
            let words = long.flatMap { [$0, $0 == "inch" ? "inches" : $0 == "foot" || $0 == "feet" ? $0 : $0 + "s"] }
            units.dimension("Square \(name)", ["\(short)2", "\(short)^2", "\(short)²", "sq \(short)", "sq. \(short)"]
                            + words.flatMap { ["square \($0)", "sq \($0)", "sq. \($0)"] })
            units.dimension("Cubic \(name)", ["\(short)3", "\(short)^3", "\(short)³", "cu \(short)"] + words.map { "cubic \($0)" })
        }
        units.dimension("Square foot", ["sqft", "sq ft", "square feet"])
        units.dimension("Cubic foot", ["cubic feet"])
        units.dimension("Square hectometer", ["hectare", "hectares", "ha"])
        units.dimension("Acre", ["acre", "acres"])
        // Volume.
        units.dimension("Cubic centimeter", ["cc", "ccm"])
        units.dimension("Liter", ["l", "liter", "liters", "litre", "litres"])
        units.dimension("Deciliter", ["dl", "deciliter", "deciliters", "decilitre", "decilitres"])
        units.dimension("Centiliter", ["cl", "centiliter", "centiliters", "centilitre", "centilitres"])
        units.dimension("Milliliter", ["ml", "milliliter", "milliliters", "millilitre", "millilitres"])
        units.dimension("Fluid ounce", ["fl oz", "fl. oz", "fl. oz.", "fluid ounce", "fluid ounces"])
        units.dimension("Gallon", ["gal", "gallon", "gallons"])
        units.dimension("Barrel", ["bbl", "barrel", "barrels"])
        units.dimension("Pint", ["pt", "pint", "pints"])
        units.dimension("Quart", ["qt", "quart", "quarts"])
        units.dimension("Cup", ["cup", "cups"])
        units.dimension("Tablespoon", ["tbsp", "tablespoon", "tablespoons"])
        units.dimension("Teaspoon", ["tsp", "teaspoon", "teaspoons"])
        // Weight.
        units.dimension("Kilogram", ["kg", "kgs", "kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo", "kilos"])
        units.dimension("Gram", bare: ["gramme"], ["g", "gr", "gram", "grams", "gramme", "grammes"])
        units.dimension("Milligram", ["mg", "milligram", "milligrams", "milligramme", "milligrammes"])
        units.dimension("Microgram", bare: ["mcg"], ["μg", "µg", "ug", "mcg", "microgram", "micrograms", "microgramme", "microgrammes"])
        units.dimension("Ton", ["t", "ton", "tons", "tonne", "tonnes"])
        units.dimension("Metric ton", bare: ["metric ton"], ["metric ton", "metric tons", "metric tonne", "metric tonnes"])
        units.dimension("Pound", ["lb", "lbs", "pound", "pounds"])
        units.dimension("Ounce", ["oz", "ounce", "ounces"])
        units.dimension("Dram", ["dram", "drams", "drachm", "drachma", "drachmas"])
        units.dimension("Stone", ["stone", "stones"])
        // Information: a lower-case b is a bit, an upper-case B a byte.
        units.dimension("Bit", ["bit", "bits"])
        for (prefix, name) in [("k", "Kilo"), ("m", "Mega"), ("g", "Giga"), ("t", "Tera"), ("p", "Peta")] {
            units.dimension("\(name)bit", ["\(prefix)b", "\(prefix)bit", "\(prefix)bits", "\(name.lowercased())bit", "\(name.lowercased())bits"])
            units.dimension("\(name)byte", ["\(name.lowercased())byte", "\(name.lowercased())bytes"])
            units.dimension("\(name)byte", caseSensitive: true, ["\(prefix.uppercased())B", "\(prefix)B"])
        }
        units.dimension("Byte", ["byte", "bytes"])
        // Speed.
        units.dimension("Meter per second", ["m/s", "meter per second", "meters per second", "metre per second", "metres per second",
                                             "meters/second"])
        units.dimension("Kilometer per hour", ["km/h", "km/hr", "kph", "kmph", "kmh", "km per hour", "kilometer per hour", "kilometers per hour",
                                               "kilometre per hour", "kilometres per hour", "kilometers an hour", "kilometres an hour"])
        units.dimension("Mile per hour", ["mph", "mi/h", "mi/hr", "mile per hour", "miles per hour", "miles an hour", "mile an hour"])
        units.dimension("Knot", ["kt", "kn", "knot", "knots"])
        units.dimension("Foot per second", ["ft/s", "fps", "foot per second", "feet per second"])
        for (unit, short, word) in [("Meter", "m", "meters"), ("Centimeter", "cm", "centimeters"), ("Kilometer", "km", "kilometers")] {
            units.dimension("\(unit) per millisecond", ["\(short)/ms", "\(word)/millisecond", "\(word) per millisecond"])
        }
        // Angle.
        units.dimension("Radian", ["rad", "radian", "radians"])
        units.dimension("Turn", ["turn", "turns"])
        units.dimension("Degree", angle: true, ["degree", "degrees", "deg", "°"])
        units.angleWords = ["angle", "angles", "rotate", "rotated", "rotation", "turn", "turned", "turning", "tilt", "tilted"]
        units.ambiguityLeads = ["at", "until", "till", "by", "before", "after", "from", "to", "for", "around", "since"]
        return units
    }()
}
