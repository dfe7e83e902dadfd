/// German units of age and dimension (Recognizers-Text's German AgeModel and DimensionModel specs, read for their
/// meaning): "29 Jahre alt", "95 Jahren", "drei Wochen alt", "3 Zoll", "195,63 Quadratmeter", "120 km/h",
/// "299.792.458 Metern pro Sekunde"; units named with the English names those specs use ("Year", "Square meter").
enum GermanMeasureWords {
    static func add(to units: inout UnitLexicon) {
        for (name, words) in [("Year", ["jahr", "jahre", "jahren"]), ("Month", ["monat", "monate", "monaten"]),
                              ("Week", ["woche", "wochen"]), ("Day", ["tag", "tage", "tagen"])] {
            units.age(name, alsoDuration: true, words)
            units.age(name, words.map { "\($0) alt" })
        }

        units.dimension("Kilometer", ["km", "kilometer", "kilometern", "kilometers"])
        units.dimension("Hectometer", ["hm", "hektometer"])
        units.dimension("Decameter", ["dam", "dekameter"])
        units.dimension("Meter", ["m", "meter", "metern", "meters"])
        units.dimension("Decimeter", ["dm", "dezimeter"])
        units.dimension("Centimeter", ["cm", "zentimeter", "zentimetern"])
        units.dimension("Millimeter", ["mm", "millimeter", "millimetern"])
        units.dimension("Micrometer", ["µm", "μm", "mikrometer", "mikrometern", "mikron"])
        units.dimension("Nanometer", ["nm", "nanometer", "nanometern"])
        units.dimension("Mile", ["meile", "meilen"])
        units.dimension("Yard", ["yard", "yards"])
        units.dimension("Foot", ["fuß", "fuss"])
        units.dimension("Inch", ["zoll"])
        units.dimension("Square meter", ["m2", "m²", "m^2", "qm", "quadratmeter", "quadratmetern"])
        units.dimension("Square kilometer", ["km2", "km²", "km^2", "quadratkilometer", "quadratkilometern"])
        units.dimension("Square centimeter", ["cm2", "cm²", "quadratzentimeter"])
        units.dimension("Hectare", ["ha", "hektar"])
        units.dimension("Acre", ["acre", "morgen"])
        units.dimension("Cubic meter", ["m3", "m³", "kubikmeter", "kubikmetern"])
        units.dimension("Cubic centimeter", ["cm3", "cm³", "ccm", "kubikzentimeter"])
        units.dimension("Liter", ["l", "liter", "litern"])
        units.dimension("Milliliter", ["ml", "milliliter", "millilitern"])
        units.dimension("Centiliter", ["cl", "zentiliter"])
        units.dimension("Gallon", ["gallone", "gallonen"])
        units.dimension("Barrel", ["barrel", "fass"])
        units.dimension("Teaspoon", ["tl", "teelöffel", "teelöffeln"])
        units.dimension("Tablespoon", ["el", "esslöffel", "esslöffeln"])
        units.dimension("Kilogram", ["kg", "kilogramm", "kilo"])
        units.dimension("Gram", ["g", "gramm"])
        units.dimension("Milligram", ["mg", "milligramm"])
        units.dimension("Ton", ["t", "tonne", "tonnen"])
        units.dimension("Pound", ["pfund"])
        units.dimension("Ounce", ["unze", "unzen"])
        units.dimension("Bit", ["bit", "bits"])
        units.dimension("Byte", ["byte", "bytes"])
        units.dimension("Kilobyte", ["kilobyte", "kilobytes"])
        units.dimension("Megabyte", ["megabyte", "megabytes"])
        units.dimension("Gigabyte", ["gigabyte", "gigabytes"])
        units.dimension("Terabyte", ["terabyte", "terabytes"])
        for (prefix, name) in [("k", "Kilo"), ("m", "Mega"), ("g", "Giga"), ("t", "Tera")] {
            units.dimension("\(name)bit", ["\(prefix)b", "\(prefix)bit", "\(name.lowercased())bit", "\(name.lowercased())bits"])
            units.dimension("\(name)byte", caseSensitive: true, ["\(prefix.uppercased())B", "\(prefix)B"])
        }
        units.dimension("Kilometer per hour", ["km/h", "kmh", "km/std", "kilometer pro stunde", "stundenkilometer"])
        units.dimension("Mile per hour", ["mph", "meilen pro stunde"])
        units.dimension("Meter per second", ["m/s", "meter pro sekunde", "metern pro sekunde"])
        units.dimension("Knot", ["knoten"])
        units.dimension("Degree", angle: true, ["grad", "°"])
        units.dimension("Radian", ["rad", "radiant"])
        units.dimension("Turn", ["turn", "umdrehung", "umdrehungen"])
    }
}
