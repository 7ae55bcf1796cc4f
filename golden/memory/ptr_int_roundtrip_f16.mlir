entry @ptr_int_roundtrip_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = ptr_to_int %arg0 : tile<ptr<f16>> -> tile<i64>
  %5 = reshape %4 : tile<i64> -> tile<1xi64>
  %6 = broadcast %5 : tile<1xi64> -> tile<128xi64>
  %7 = constant <i32: 128> : tile<i32>
  %8 = muli %1, %7 : tile<i32>
  %9 = reshape %8 : tile<i32> -> tile<1xi32>
  %10 = broadcast %9 : tile<1xi32> -> tile<128xi32>
  %11 = iota : tile<128xi32>
  %12 = addi %10, %11 : tile<128xi32>
  %13 = exti %12 signed : tile<128xi32> -> tile<128xi64>
  %14 = constant <i64: 2> : tile<128xi64>
  %15 = muli %13, %14 : tile<128xi64>
  %16 = addi %6, %15 : tile<128xi64>
  %17 = int_to_ptr %16 : tile<128xi64> -> tile<128xptr<f16>>
  %18 = ptr_to_int %17 : tile<128xptr<f16>> -> tile<128xi64>
  %19 = subi %18, %6 : tile<128xi64>
  %20 = constant <i64: 0> : tile<128xi64>
  %21 = cmpi greater_than_or_equal %19, %20, signed : tile<128xi64> -> tile<128xi1>
  %22 = constant <i64: 2> : tile<i64>
  %23 = muli %arg2, %22 : tile<i64>
  %24 = subi %23, %22 : tile<i64>
  %25 = reshape %24 : tile<i64> -> tile<1xi64>
  %26 = broadcast %25 : tile<1xi64> -> tile<128xi64>
  %27 = cmpi less_than_or_equal %19, %26, signed : tile<128xi64> -> tile<128xi1>
  %28 = andi %21, %27 : tile<128xi1>
  assert %28, "kernel `ptr_int_roundtrip_f16`: `load_ptr_tko`: a lane addresses memory outside argument 0 (In) (at pointers.py:122)" : tile<128xi1>
  %29, %30 = load_ptr_tko weak %17 token=%0 : tile<128xptr<f16>> -> tile<128xf16>, token
  %31 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %32 = make_tensor_view %31, shape = [1024], strides = [1] : tensor_view<1024xf16, strides=[1]>
  %33 = make_partition_view %32 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf16, strides=[1]>>
  %34 = store_view_tko weak %29, %33[%1] token = %30 : tile<128xf16>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf16, strides=[1]>>, tile<i32> -> token
  return
}
